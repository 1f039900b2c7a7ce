#!/usr/bin/env -S node --max-old-space-size=256
// The heap is capped (also in `npm start` and the image): V8 otherwise lets the old space grow to
// about four times the live data before collecting, so a 100 000-link organise (live heap about
// 140 MB) held some 760 MB. README "Memory" says how to size it for a larger catalogue.
// The `catalog` command runs the TypeScript sources through tsx, so `npm ci && npm start` needs no build step.
const fs = require('node:fs');
// A .env file in the working directory fills in variables the environment does not set.
if (fs.existsSync('.env')) process.loadEnvFile('.env');
require('tsx/cjs/api').register();
require('../src/cli.ts');
