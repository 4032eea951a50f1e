// read-loop.fixture.ts: run by read-loop.test.ts as its own Bun process (the kernel's events reach a
// main thread only, not vitest's worker): a quiet PTY's late output and a silent child's SIGKILL, with
// how long each took to be seen. Prints one JSON line.
import { spawnPty } from './pty.ts';

const quietPty = (script: string) =>
  spawnPty({ file: '/bin/sh', args: ['-c', script], cwd: '/tmp', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' }, cols: 80, rows: 24, quiet: () => true });

const started = performance.now();
const talker = quietPty('sleep 1.5; echo late-line; sleep 0.5; exit 3');
let lateSeenAt = -1;
const decoder = new TextDecoder();
let text = '';
talker.onData(({ data }) => {
  text += decoder.decode(data, { stream: true });
  if (lateSeenAt < 0 && text.includes('late-line')) lateSeenAt = performance.now() - started;
});
const talkerExit = await talker.exited;

const silent = quietPty('sleep 30');
await Bun.sleep(1_500); // past the back-off: asleep on the events
const killedAt = performance.now();
process.kill(silent.pid, 'SIGKILL');
await silent.exited;
const killSeenMs = performance.now() - killedAt;

console.log(JSON.stringify({ lateMs: lateSeenAt - 1_500, exitCode: talkerExit.exitCode, killSeenMs }));
