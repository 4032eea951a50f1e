// start-env.fixture.ts: run by start-env.test.ts as its own process. Before the re-exec it notes its
// pid in the file named by argv[2]; after it (or when nothing was missing) it prints what it runs with.
import { appendFileSync } from 'node:fs';
import { execWithStartEnv } from './start-env.ts';

if (process.env.TETHER_TEST_START === undefined) appendFileSync(process.argv[2]!, `before ${process.pid}\n`);
execWithStartEnv({ TETHER_TEST_START: 'ours' });
console.log(JSON.stringify({ pid: process.pid, value: process.env.TETHER_TEST_START, kept: process.env.TETHER_TEST_KEPT, args: process.argv.slice(2) }));
