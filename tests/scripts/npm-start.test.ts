// npm-start.test.ts: what `npm start` prints in a checkout, run as a person runs it (real npm, real
// scripts/start.mjs, the real hub on a free port, a fresh TETHER_HOME), and that stopping it stops
// the hub.
//
//   npm start ─► start.mjs: one line per step that had to run (bun install, the web build) ─► tether
//   hub: its URL, the phone line, the token (first start only, once), the pairing link, how to start
//   a session in the checkout's words ─► "ready". At most 25 lines besides a QR code (with the
//   default 127.0.0.1 there is none). SIGTERM to npm ─► npm ─► start.mjs ─► the hub stops: it used to
//   go on running, its port held, after npm and the script were gone.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeScriptEnv, REPO_ROOT } from '../harness/node-scripts.ts';

const READY = 'tether hub ready (Ctrl-C to stop)';
const START_TIMEOUT_MS = 90_000;
/** A QR code's line: only half blocks, full blocks and spaces. */
const QR_LINE = /^[ ▀▄█]*[▀▄█][ ▀▄█]*$/;

const home = mkdtempSync(join(tmpdir(), 'tether-npm-start-'));
/** Every process a start made (npm, start.mjs, the hub), for afterAll when a check failed midway. */
const started: number[] = [];

/** Whether `pid` is still one of ours: its command line names this test's home or the repo. */
function stillOurs(pid: number): boolean {
  const file = `/proc/${pid}/cmdline`;
  if (!existsSync(file)) return false;
  const cmdline = readFileSync(file, 'utf8');
  return cmdline.includes('start') || cmdline.includes(REPO_ROOT);
}

afterAll(() => {
  for (const pid of started.filter(stillOurs)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // ended between the look and the kill
    }
  }
  rmSync(home, { recursive: true, force: true });
});

type Start = { npm: ChildProcess; script: number; lines: string[]; url: string; exited: Promise<number | null> };

/** `npm start -- --port 0` until the hub says it is ready; everything it printed, in order. */
async function npmStart(): Promise<Start> {
  const npm = spawn('npm', ['start', '--', '--port', '0'], { cwd: REPO_ROOT, env: nodeScriptEnv({ TETHER_HOME: home }), stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(npm.pid!);
  let output = '';
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no "${READY}" in ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes(`${READY}\n`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    npm.stdout!.on('data', read);
    npm.stderr!.on('data', read);
    void exited.then((code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${output}`)));
  });
  const lines = output.replace(/\n$/, '').split('\n');
  const url = /tether hub listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines.find((l) => l.startsWith('tether hub listening on')) ?? '')?.[1];
  if (!url) throw new Error(`no hub URL in:\n${output}`);
  const script = childOf(npm.pid!);
  const hub = script === null ? null : childOf(script);
  if (script === null || hub === null) throw new Error(`npm start (pid ${npm.pid}) has no script or hub process`);
  started.push(script, hub);
  return { npm, script, lines, url, exited };
}

/** The pid of npm's child (start.mjs: npm execs it in place of its shell, package.json). */
function childOf(pid: number): number | null {
  const file = `/proc/${pid}/task/${pid}/children`;
  const first = existsSync(file) ? readFileSync(file, 'utf8').trim().split(/\s+/)[0] : '';
  return first ? Number(first) : null;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

function checkStartLines(lines: string[], url: string): void {
  const text = lines.filter((l) => !QR_LINE.test(l));
  expect(text.length, lines.join('\n')).toBeLessThanOrEqual(25);
  // No step prints more than its one line: no bundler or installer output on success.
  const steps = text.filter((l) => l.startsWith('tether: '));
  for (const line of steps) expect(line).toMatch(/^tether: .+ … done \(\d+\.\d s\)$/);
  expect(text.join('\n')).not.toMatch(/vite|dist\/assets|Resolving dependencies|modules transformed/);
  expect(text).toContain(`tether hub listening on ${url}`);
  expect(text.filter((l) => l.startsWith('phone: '))).toHaveLength(1);
  expect(text.filter((l) => l.startsWith(`open on this machine: ${url}/#pair=tpc_`))).toHaveLength(1);
  // In the words of a checkout, where `tether` is not on PATH.
  expect(text.filter((l) => l.startsWith('sessions: npm run tether -- claude (or codex, gemini)'))).toHaveLength(1);
  expect(text.at(-1)).toBe(READY);
}

describe('npm start in a checkout', () => {
  it('prints the hub URL, the phone line, the token once and the pairing link in at most 25 lines; stopping npm stops the hub', async () => {
    const first = await npmStart();
    checkStartLines(first.lines, first.url);
    const tokens = first.lines.join('\n').match(/tth_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(tokens).toHaveLength(1);
    expect(first.lines).toContain(`  ${tokens[0]}`);
    expect(first.lines).toContain(`sign this machine in: npm run tether -- auth login --hub ${first.url} --token <the token above>`);
    expect(first.lines).toContain('more tokens: npm run tether -- token create --namespace NAME');
    expect(await answers(first.url)).toBe(true);

    first.npm.kill('SIGTERM');
    await first.exited;
    // start.mjs passes the stop on and leaves after the hub: nothing keeps running, the port is free.
    await expect.poll(() => existsSync(`/proc/${first.script}`), { timeout: 20_000 }).toBe(false);
    expect(await answers(first.url)).toBe(false);

    // The same home again: the token is not shown a second time; a fresh pairing link is.
    const second = await npmStart();
    checkStartLines(second.lines, second.url);
    expect(second.lines.join('\n')).not.toMatch(/tth_/);
    second.npm.kill('SIGTERM');
    await second.exited;
    await expect.poll(() => answers(second.url), { timeout: 20_000 }).toBe(false);
  });
});
