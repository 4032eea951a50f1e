// step.mjs: one line per bootstrap step ("tether: building the web app … done (3.1 s)"). The step's
// own output (an install's, the bundler's) goes to a private temp file, stdout and stderr together in
// the order they were written, and is printed in full only when the step fails; then the script
// exits with the step's code. Plain Node.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `cmd args` to the end with its output captured; prints one line, or on failure everything it
 *  printed and why, and exits. */
export function step(options) {
  const { what, cmd, args, cwd, env } = options;
  process.stdout.write(`tether: ${what} … `);
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'tether-step-'));
  const log = join(dir, 'output.log');
  let result;
  let output = '';
  try {
    const fd = openSync(log, 'w', 0o600);
    try {
      result = spawnSync(cmd, args, { cwd, env: env ?? process.env, stdio: ['ignore', fd, fd] });
    } finally {
      closeSync(fd);
    }
    output = readFileSync(log, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const seconds = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  if (!result.error && result.status === 0) {
    process.stdout.write(`done (${seconds})\n`);
    return;
  }
  process.stdout.write(`failed (${seconds})\n`);
  process.stderr.write(output.endsWith('\n') || output === '' ? output : `${output}\n`);
  const how = result.error ? result.error.message : result.signal ? `killed by ${result.signal}` : `exit ${result.status}`;
  process.stderr.write(`tether: ${what} failed (${cmd}: ${how})\n`);
  process.exit(result.status || (result.signal ? 128 + (constants.signals[result.signal] ?? 0) : 1));
}
