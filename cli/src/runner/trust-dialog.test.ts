import { describe, expect, it } from 'vitest';
import { trustKeys } from './trust-dialog.ts';

describe("the trust dialog's Yes", () => {
  it('claude 2.1.197: numbered options, the digit selects at once (Enter when the cursor is on Yes)', () => {
    expect(trustKeys(' ❯ 1. Yes, I trust this folder\n   2. No, exit')).toBe('\r');
    expect(trustKeys('   2. No, exit\n   1. Yes, I trust this folder\n ❯ 3. Something else')).toBe('1');
  });

  it('claude 2.1.330: unnumbered, the cursor on "No, exit": one Down, then Enter', () => {
    const screen = [' Accessing workspace:', ' ❯ No, exit', '   Yes, I trust this folder', ' Enter to confirm · Esc to cancel'].join('\n');
    expect(trustKeys(screen)).toBe('\x1b[B\r');
    expect(trustKeys([' ❯ Yes, I trust this folder', '   No, exit'].join('\n'))).toBe('\r');
    expect(trustKeys(['   Yes, I trust this folder', '   Other', ' ❯ No, exit'].join('\n'))).toBe('\x1b[A\x1b[A\r');
  });
});
