// desk-command.test.ts: the empty list's command follows how the hub's tether was installed.
import { describe, expect, it } from 'vitest';
import { deskCommand } from './desk-command.ts';

describe('deskCommand', () => {
  it('in a checkout, its package.json script, typed there', () => {
    expect(deskCommand('checkout')).toEqual({ command: 'npm run tether -- claude', tether: 'npm run tether --', where: 'checkout' });
  });

  it('installed (npm package, binary), not said, or not a kind this app knows: tether on PATH, anywhere', () => {
    for (const install of ['package', 'binary', undefined, 'homebrew', 7, { kind: 'checkout' }]) {
      expect(deskCommand(install), String(install)).toEqual({ command: 'tether claude', tether: 'tether', where: 'anywhere' });
    }
  });
});
