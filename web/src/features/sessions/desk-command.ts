// desk-command.ts: the command that starts a session at a terminal, in the words of how the hub's
// tether was installed (GET /api/config's `install`): a checkout has no `tether` on PATH, so its
// package.json script stands in (`npm run tether -- claude`, typed in the checkout). A hub that does
// not say, or says something this app does not know, is taken for an installed one.
import { isInstallKind } from '@tether/shared/wire';

export type DeskCommand = {
  /** Starts claude; the other agents swap the last word. */
  command: string;
  /** What the person types the command in front of an agent's name with. */
  tether: string;
  /** Where it is typed. */
  where: 'checkout' | 'anywhere';
};

export function deskCommand(install: unknown): DeskCommand {
  const checkout = isInstallKind(install) && install === 'checkout';
  const tether = checkout ? 'npm run tether --' : 'tether';
  return { command: `${tether} claude`, tether, where: checkout ? 'checkout' : 'anywhere' };
}
