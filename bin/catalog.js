#!/usr/bin/env node
// The `catalog` command runs the TypeScript sources through tsx, so `npm ci && npm start` needs no build step.
require('tsx/cjs/api').register();
require('../src/cli.ts');
