/**
 * The type-level checks of typed events (test/types/typed-events.ts) only count when `tsc --noEmit`
 * compiles them: the file must stay in tsconfig.json's program, and each of its `@ts-expect-error`
 * lines must hold back an error of its own (not one a neighbouring line happens to cause).
 */
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../../../..');
const file = path.join(root, 'test/types/typed-events.ts');

function parsedConfig(): ts.ParsedCommandLine {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error('tsconfig.json does not parse');
  return parsed;
}

describe('type-level checks of typed events', () => {
  it('are part of the program tsconfig.json compiles', () => {
    expect(parsedConfig().fileNames.map((f) => path.resolve(f))).toContain(file);
  });

  it('each expected error is one the compiler reports on the line after its directive, once the directives are gone', () => {
    const source = ts.sys.readFile(file)!;
    const lines = source.split('\n');
    const expected = lines.flatMap((l, i) => (/^\s*\/\/ @ts-expect-error/.test(l) ? [i + 1] : []));
    expect(expected.length).toBeGreaterThanOrEqual(10);
    // Blanked rather than removed, so every other line keeps its number.
    const stripped = lines.map((l) => (/^\s*\/\/ @ts-expect-error/.test(l) ? '' : l)).join('\n');
    const { options } = parsedConfig();
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    host.readFile = (f) => (path.resolve(f) === file ? stripped : readFile(f));
    const program = ts.createProgram({ rootNames: [file], options: { ...options, noEmit: true }, host });
    const errorLines = new Set(
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .filter((d) => d.file && path.resolve(d.file.fileName) === file && d.start !== undefined)
        .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line),
    );
    // 0-based: the line after the directive at 0-based index i - 1 is i.
    expect([...errorLines].sort((a, b) => a - b)).toEqual(expected);
  });
});
