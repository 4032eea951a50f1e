import { describe, expect, it } from 'vitest';
import { modeFromFooter } from './footer-mode.ts';

describe('permission mode from the footer', () => {
  it('reads 2.1.330 and 2.1.197 footers alike', () => {
    expect(modeFromFooter(['  ⏵⏵ auto mode on (shift+tab to cycle) · ← for agents'])).toBe('auto');
    expect(modeFromFooter(['  ⏸ manual mode on · ? for shortcuts · ← for agents'])).toBe('default');
    expect(modeFromFooter(['  ⏵⏵ accept edits on (shift+tab to cycle) · ← for agents'])).toBe('acceptEdits');
    expect(modeFromFooter(['  ⏸ plan mode on (shift+tab to cycle)'])).toBe('plan');
    expect(modeFromFooter(["  ⏵⏵ don't ask on (shift+tab to cycle)"])).toBe('dontAsk');
    expect(modeFromFooter(['  ⏵⏵ bypass permissions on (shift+tab to cycle)'])).toBe('bypassPermissions');
    // 2.1.197's manual mode names no mode.
    expect(modeFromFooter(['  ? for shortcuts · ← for agents                 ● high · /effort'])).toBe('default');
  });
});
