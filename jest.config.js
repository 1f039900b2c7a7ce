/** Jest: TypeScript through ts-jest (transpile only; `tsc --noEmit` type-checks before jest runs). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The EventStoreDB contract needs a server; it runs whenever EVENTSTORE_URL names one.
  testPathIgnorePatterns: ['/node_modules/', ...(process.env.EVENTSTORE_URL ? [] : ['eventstoredb\\.contract\\.test\\.ts$'])],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  testTimeout: 60000,
  maxWorkers: 2,
};
