// agent-env.test.ts: the agent a runner starts does not get the runner's secrets. A real runner
// process holds the hub token and its session's identity in its environment; the program in its
// PTY prints what it can see of them, and the hub's final screen shows what it printed.
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../harness/cleanups.ts';
import { startHub } from '../harness/hub.ts';
import { finalScreen, startCommandRunner } from '../harness/terminal.ts';

const defer = useCleanups();

describe('the agent’s environment', () => {
  it('has none of the runner’s hub token, hub URL or session identity, and keeps the rest', async () => {
    const hub = await startHub();
    defer(() => hub.stop());
    const show = ['TETHER_TOKEN', 'TETHER_HUB_URL', 'TETHER_SESSION_ID', 'TETHER_DESK', 'KEEP_ME']
      .map((name) => `echo "${name}=[\${${name}-unset}]"`)
      .join('; ');
    const runner = startCommandRunner({ hub, command: `${show}; sleep 0.2`, env: { KEEP_ME: 'kept' } });
    defer(() => runner.stop());
    await runner.exited;
    const screen = (await finalScreen(hub, runner.sessionId)).replace(/\s+/g, ' ');
    expect(screen).toContain('TETHER_TOKEN=[unset] TETHER_HUB_URL=[unset] TETHER_SESSION_ID=[unset] TETHER_DESK=[unset] KEEP_ME=[kept]');
    expect(screen).not.toContain(hub.token);
  }, 60_000);
});
