// terminal-claude.test.ts: the real claude TUI (against the fake API) mirrored through a real runner
// and hub. A viewer that joins after claude drew its screen and answered a prompt sees the same
// screen as a viewer that watched from the start, and the same screen as the desk.
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { startHub } from '../harness/hub.ts';
import { startRunner } from '../harness/runner.ts';
import { viewTerminal } from '../harness/terminal.ts';
import { DESK_READY } from '../harness/world.ts';
import { useCleanups } from '../harness/cleanups.ts';

/** claude's idle input box at the desk (the prompt char is followed by a no-break space). */
const READY = DESK_READY;

const defer = useCleanups();

describe('terminal mirror of the real claude', () => {
  it('a late joiner’s screen equals a live viewer’s and the desk’s', async () => {
    const fake = await startFakeAnthropic({ script: [text('Mirrored reply from the fake model')] });
    defer(() => fake.stop());
    const hub = await startHub();
    defer(() => hub.stop());
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const runner = startRunner({ hub, sandbox, cols: 100, rows: 30 });
    defer(() => runner.stop());

    const live = await viewTerminal({ url: hub.url, token: hub.token, sessionId: runner.sessionId });
    defer(() => live.stop());
    await live.waitFor(() => READY.test(live.screen()), 'claude ready on the live viewer', 30_000);
    // Typed from the phone's terminal: claude answers; everyone sees it.
    expect((await live.emit('terminal:input', { sessionId: runner.sessionId, data: 'hello from the phone' })).ok).toBe(true);
    await live.waitFor(() => live.screen().includes('hello from the phone'), 'typed text');
    expect((await live.emit('terminal:input', { sessionId: runner.sessionId, data: '\r' })).ok).toBe(true);
    await live.waitFor(() => live.screen().includes('Mirrored reply from the fake model') && READY.test(live.screen()), 'reply', 30_000);
    await runner.waitForScreen('Mirrored reply from the fake model');

    const late = await viewTerminal({ url: hub.url, token: hub.token, sessionId: runner.sessionId });
    defer(() => late.stop());
    // claude redraws (spinner, cursor) at will: compare once both are at the same offset.
    await late.waitFor(() => late.snapshots() > 0, 'snapshot');
    for (let i = 0; ; i++) {
      await Promise.all([late.settled(), live.settled()]);
      if (late.offset() === live.offset() && late.screen() === live.screen()) break;
      if (i > 50) expect(late.screen()).toBe(live.screen());
      await late.waitFor(() => late.offset() === live.offset(), 'same offset');
    }
    expect(late.screen()).toContain('Mirrored reply from the fake model');
    expect(late.misplaced() + live.misplaced()).toBe(0);
    // The desk (100x30, the size owner) shows the same rows. claude may still be redrawing (2.1.331
    // shows "running Stop hook" in its spinner after the box is back), and the desk and a viewer
    // each see a redraw at their own moment: compare once both have caught up with the same one.
    const trim = (s: string) => s.split('\n').map((l) => l.trimEnd()).join('\n');
    await runner.waitForScreen('Mirrored reply from the fake model');
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      await late.settled();
      if (trim(late.screen()) === trim(runner.screenText())) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(trim(late.screen())).toBe(trim(runner.screenText()));
  }, 90_000);
});
