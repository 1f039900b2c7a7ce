// ESLint: the recommended rules of ESLint and typescript-eslint on every source file, and the rules
// that need the type checker (switch-exhaustiveness-check) on the TypeScript ones. No stylistic rules:
// layout is the formatter's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    // Build output (the client bundles too), local data, test output: the .gitignore's.
    ignores: ['node_modules/', 'dist/', '.data/', 'coverage/', 'test-results/', 'openapi.json'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks a name kept on purpose: a never-typed `_exhaustive`, a field taken out of a rest copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    languageOptions: {
      parserOptions: {
        // Each file's own tsconfig (web/tsconfig.json for the clients); the Vite configs and their shared build helper, in none, get a default one.
        projectService: { allowDefaultProject: ['web/*/vite.config.mts', 'web/*.mts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A union gaining a member (an event type, a state) must be handled wherever it is switched on;
      // a switch with a default still lists every member of a union.
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    // Tests read the service's JSON answers as they expect them to be; a wrong expectation fails the test.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The CommonJS entry points and test set-up: require() is how they load.
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
