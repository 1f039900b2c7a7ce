// The jobs thread of a serving process (src/jobs-thread.ts), run through tsx like the `catalog` command.
require('tsx/cjs/api').register();
require('../src/jobs-thread.ts');
