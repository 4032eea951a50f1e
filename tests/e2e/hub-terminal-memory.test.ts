// `tether hub --terminal-memory MiB` (or TETHER_TERMINAL_MEMORY_MB): the budget all live terminals'
// replay logs share. A bad value is one clear line and a non-zero exit before anything starts; a
// good one reaches the hub, whose /healthz reports it next to what the logs hold.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TETHER_MAIN } from '../harness/runner.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanups.splice(0).reverse()) fn();
});

function startHub(args: string[], env: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'tether-hub-memory-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const { TETHER_TERMINAL_MEMORY_MB: _inherited, ...base } = process.env;
  const proc = Bun.spawn([process.execPath, TETHER_MAIN, 'hub', '--port', '0', ...args], { env: { ...base, ...env, TETHER_HOME: home }, stdout: 'pipe', stderr: 'pipe' });
  cleanups.push(() => proc.kill('SIGKILL'));
  return proc;
}

async function readUntil(stream: ReadableStream<Uint8Array>, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs));
  while (!pattern.test(text)) {
    const chunk = await Promise.race([reader.read(), timeout]);
    if (chunk === null || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
  }
  return text;
}

describe('tether hub --terminal-memory', () => {
  it('refuses a value that is not a number, or below one terminal\'s floor, in one line', async () => {
    for (const [args, env, message] of [
      [['--terminal-memory', 'lots'], {}, '--terminal-memory must be a number of MiB, got "lots"'],
      [[], { TETHER_TERMINAL_MEMORY_MB: '0.01' }, 'TETHER_TERMINAL_MEMORY_MB must be at least 0.125 MiB'],
    ] as const) {
      const proc = startHub([...args], { ...env });
      const code = await proc.exited;
      const stderr = await new Response(proc.stderr).text();
      expect(code).not.toBe(0);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain(message);
    }
  }, 60_000);

  it('passes the budget to the hub, which reports it on /healthz (the flag wins over the environment)', async () => {
    const proc = startHub(['--terminal-memory', '64'], { TETHER_TERMINAL_MEMORY_MB: '1000' });
    const out = await readUntil(proc.stdout, /tether hub ready/);
    expect(out).toContain('terminal replay: 64 MiB for all live terminals together');
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    const health = (await (await fetch(`${url}/healthz`)).json()) as { terminals?: unknown };
    expect(health.terminals).toEqual({ logBytes: 0, budgetBytes: 64 * 1024 * 1024 });
  }, 60_000);
});
