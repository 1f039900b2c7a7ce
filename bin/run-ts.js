#!/usr/bin/env node
// Runs a TypeScript entry point (bench, scripts) through tsx: `node bin/run-ts.js bench/index.ts`.
const path = require('node:path');
require('tsx/cjs/api').register();
const [, , entry, ...rest] = process.argv;
process.argv = [process.argv[0], entry, ...rest];
require(path.resolve(entry));
