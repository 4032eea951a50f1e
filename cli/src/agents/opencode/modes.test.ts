import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '@tether/shared';
import { opencodeModes } from './modes.ts';
import { opencodeScreen } from './screen.ts';

/** Its TUI at an idle prompt (1.18.33's drawing) whose Tab walks `agents`; a dialog hides the box. */
function fakeOpencode(o: { agents: string[]; dialog?: boolean }) {
  let shown = 0;
  let presses = 0;
  const rows = () => {
    const box = ['     hi there', '  ┃', '  ┃  Ask anything…', '  ┃', `  ┃  ${o.agents[shown]} · Fake Model Fake`, '  ╹▀▀▀▀▀▀▀▀▀▀▀▀', '  tab agents  ctrl+p commands'];
    const lines = o.dialog ? ['  ┃  △ Permission required'] : box;
    return lines.map((text) => ({ text, strong: text }));
  };
  const screen = { state: async () => ({ lines: rows() }) as unknown as Awaited<ReturnType<Parameters<typeof opencodeModes.switchTo>[0]['screen']['state']>> };
  const write = (data: string) => {
    expect(data).toBe('\t');
    presses++;
    shown = (shown + 1) % o.agents.length;
  };
  return { screen, write, rows, presses: () => presses };
}

describe('a PTY opencode’s mode (its agent, Tab at the desk)', () => {
  it('is read off its input box: Build is default, Plan is plan, an agent of the person’s is none', () => {
    expect(opencodeScreen.footerMode?.(fakeOpencode({ agents: ['Build'] }).rows())).toBe('default');
    expect(opencodeScreen.footerMode?.(fakeOpencode({ agents: ['Plan'] }).rows())).toBe('plan');
    expect(opencodeScreen.footerMode?.(fakeOpencode({ agents: ['Build auto'] }).rows())).toBe('default');
    expect(opencodeScreen.footerMode?.(fakeOpencode({ agents: ['Docs'] }).rows())).toBeNull();
    expect(opencodeScreen.footerMode?.(fakeOpencode({ agents: ['Shell'] }).rows())).toBeNull();
    expect(opencodeScreen.footerMode?.(fakeOpencode({ agents: ['Build'], dialog: true }).rows())).toBeNull();
  });

  it('presses Tab until it names the agent of the mode, past agents of the person’s', async () => {
    const tui = fakeOpencode({ agents: ['Build', 'Docs', 'Plan'] });
    await expect(opencodeModes.switchTo({ target: 'plan', screen: tui.screen, write: tui.write, settleMs: 200 })).resolves.toEqual({ ok: true });
    expect(tui.presses()).toBe(2);
    await expect(opencodeModes.current(tui.screen)).resolves.toBe('plan');
    await expect(opencodeModes.switchTo({ target: 'default', screen: tui.screen, write: tui.write, settleMs: 200 })).resolves.toEqual({ ok: true });
    expect(tui.presses()).toBe(3);
  });

  it('refuses a mode it has no agent for, an agent its cycle lacks, and a dialog, pressing nothing it need not', async () => {
    const tui = fakeOpencode({ agents: ['Build', 'Docs'] });
    await expect(opencodeModes.switchTo({ target: 'acceptEdits' as PermissionMode, screen: tui.screen, write: tui.write, settleMs: 200 })).resolves.toMatchObject({ ok: false, reason: expect.stringMatching(/no agent for the acceptEdits mode/) });
    expect(tui.presses()).toBe(0);
    await expect(opencodeModes.switchTo({ target: 'plan', screen: tui.screen, write: tui.write, settleMs: 200 })).resolves.toEqual({ ok: false, reason: "opencode's Tab cycle has no plan mode in this session" });
    const asking = fakeOpencode({ agents: ['Build', 'Plan'], dialog: true });
    await expect(opencodeModes.switchTo({ target: 'plan', screen: asking.screen, write: asking.write, settleMs: 200 })).resolves.toEqual({ ok: false, reason: 'opencode shows a dialog, not its input box' });
    expect(asking.presses()).toBe(0);
  });
});
