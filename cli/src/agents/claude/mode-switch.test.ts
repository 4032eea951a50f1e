import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '@tether/shared';
import { switchMode } from './mode-switch.ts';

const FOOTERS: Record<string, string> = {
  default: '⏸ manual mode on · ? for shortcuts',
  acceptEdits: '⏵⏵ accept edits on (shift+tab to cycle)',
  plan: '⏸ plan mode on (shift+tab to cycle)',
  auto: '⏵⏵ auto mode on (shift+tab to cycle)',
};

/** A claude whose Shift+Tab walks `cycle`; it ignores the presses listed in `dropped` (0-based) and
 *  redraws its footer `redrawMs` after a press it took. */
function fakeClaude(options: { cycle: PermissionMode[]; dropped?: number[]; redrawMs?: number }) {
  let shown = 0;
  let presses = 0;
  const rule = '─'.repeat(40);
  const screen = {
    state: async () => {
      const lines = [rule, '❯ ', rule, FOOTERS[options.cycle[shown]!]!].map((text) => ({ text, strong: text }));
      return { lines } as unknown as Awaited<ReturnType<Parameters<typeof switchMode>[0]['screen']['state']>>;
    },
  };
  const write = (data: string) => {
    expect(data).toBe('\x1b[Z');
    const press = presses++;
    if (options.dropped?.includes(press)) return;
    setTimeout(() => {
      shown = (shown + 1) % options.cycle.length;
    }, options.redrawMs ?? 0);
  };
  return { screen, write, presses: () => presses };
}

describe('switchMode', () => {
  it('presses Shift+Tab until the footer shows the mode', async () => {
    const claude = fakeClaude({ cycle: ['default', 'acceptEdits', 'plan', 'auto'] });
    await expect(switchMode({ target: 'plan', screen: claude.screen, write: claude.write, settleMs: 200 })).resolves.toEqual({ ok: true });
    expect(claude.presses()).toBe(2);
  });

  it('a dropped key or a redraw slower than the wait is not mistaken for a cycle without the mode', async () => {
    const slow = fakeClaude({ cycle: ['default', 'acceptEdits', 'plan'], redrawMs: 300 });
    await expect(switchMode({ target: 'plan', screen: slow.screen, write: slow.write, settleMs: 100 })).resolves.toEqual({ ok: true });
    const dropping = fakeClaude({ cycle: ['default', 'acceptEdits', 'plan'], dropped: [0] });
    await expect(switchMode({ target: 'plan', screen: dropping.screen, write: dropping.write, settleMs: 100 })).resolves.toEqual({ ok: true });
  });

  it('a mode the cycle does not have is reported once the footer came back round', async () => {
    const claude = fakeClaude({ cycle: ['default', 'acceptEdits', 'plan'] });
    const result = await switchMode({ target: 'auto', screen: claude.screen, write: claude.write, settleMs: 200 });
    expect(result).toEqual({ ok: false, reason: "claude's Shift+Tab cycle has no auto mode in this session" });
    expect(claude.presses()).toBe(3);
  });
});
