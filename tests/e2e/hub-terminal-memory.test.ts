// `tether hub --terminal-memory MiB` (or TETHER_TERMINAL_MEMORY_MB): the budget all live terminals'
// replay logs share. A bad value is one clear line and a non-zero exit before anything starts; a
// good one reaches the hub, whose /healthz reports it next to what the logs hold.
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../harness/cleanups.ts';
import { readUntil, spawnHubCommand } from '../harness/hub.ts';

const defer = useCleanups();

describe('tether hub --terminal-memory', () => {
  it('refuses a value that is not a number, or below one terminal\'s floor, in one line', async () => {
    for (const [args, env, message] of [
      [['--terminal-memory', 'lots'], {}, '--terminal-memory must be a number of MiB, got "lots"'],
      [[], { TETHER_TERMINAL_MEMORY_MB: '0.01' }, 'TETHER_TERMINAL_MEMORY_MB must be at least 0.125 MiB'],
    ] as const) {
      const proc = spawnHubCommand(defer, { args: ['--port', '0', ...args], env: { ...env }, unset: ['TETHER_TERMINAL_MEMORY_MB'] });
      const code = await proc.exited;
      const stderr = await new Response(proc.stderr).text();
      expect(code).not.toBe(0);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain(message);
    }
  }, 60_000);

  it('passes the budget to the hub, which reports it on /healthz (the flag wins over the environment)', async () => {
    const proc = spawnHubCommand(defer, { args: ['--port', '0', '--terminal-memory', '64'], env: { TETHER_TERMINAL_MEMORY_MB: '1000' }, unset: ['TETHER_TERMINAL_MEMORY_MB'] });
    const out = await readUntil(proc.stdout, /tether hub ready/);
    expect(out).toContain('terminal replay: 64 MiB for all live terminals together');
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    const health = (await (await fetch(`${url}/healthz`)).json()) as { terminals?: unknown };
    expect(health.terminals).toEqual({ logBytes: 0, budgetBytes: 64 * 1024 * 1024 });
  }, 60_000);
});
