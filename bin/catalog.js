#!/usr/bin/env node
// The `catalog` command runs the TypeScript sources through tsx, so `npm ci && npm start` needs no build step.
const fs = require('node:fs');
// A .env file in the working directory fills in variables the environment does not set.
if (fs.existsSync('.env')) process.loadEnvFile('.env');
require('tsx/cjs/api').register();
require('../src/cli.ts');
