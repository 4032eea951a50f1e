// terminal-final-screen.test.ts: "a terminal that ended still replays its final screen", also after
// the hub restarts (the screen is in the hub's SQLite file, not only in the room's memory). A real
// runner process prints and exits; viewers join afterwards, before and after a restart.
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../harness/cleanups.ts';
import { startRestartableHub } from '../harness/hub.ts';
import { finalScreen, startCommandRunner } from '../harness/terminal.ts';

const defer = useCleanups();

describe('final screen of an ended terminal', () => {
  it('replays after the session ended and after a hub restart; a resumed id does not show the old one', async () => {
    const hubProcess = await startRestartableHub(defer);
    const { hub } = hubProcess;

    // Nobody watches while it runs: the runner still sends its last screen before session:end.
    const runner = startCommandRunner({ hub, command: `printf '\\033[32mfinal words\\033[0m: %s\\n' "$((40+2))"; sleep 0.2` });
    defer(() => runner.stop());
    // (It exits before anything looked like claude's prompt: the session counts as failed. Same screen.)
    await runner.exited;
    expect(await finalScreen(hub, runner.sessionId)).toContain('final words: 42');

    await hubProcess.kill('SIGTERM');
    await hubProcess.start();
    expect(await finalScreen(hub, runner.sessionId)).toContain('final words: 42');

    // The same session id running again (a resume) ends with its own screen, not the stored one.
    const again = startCommandRunner({ hub, command: `echo 'second run'; sleep 0.2`, env: { TETHER_SESSION_ID: runner.sessionId } });
    defer(() => again.stop());
    await again.exited;
    const second = await finalScreen(hub, runner.sessionId);
    expect(second).toContain('second run');
    expect(second).not.toContain('final words');
  }, 60_000);
});
