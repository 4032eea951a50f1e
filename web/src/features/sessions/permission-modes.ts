// permission-modes.ts: the one table of permission modes the web names, for the header's mode chip
// (mode-picker.tsx) and the new-session form (new-session-fields.tsx). Which of them a session may
// use is its agent's (capabilities); this only says how each is called and what it does.
import type { PermissionMode } from '@tether/shared';

export type PermissionModeEntry = {
  value: PermissionMode;
  /** The chip's and the panel's short name. */
  label: string;
  /** The new-session form's option, a little longer: it is read before anything runs. */
  startLabel: string;
  hint: string;
  /** Offered by the new-session form. Bypass is not: tether's approvals are the point of driving an
   *  agent from a phone, and the runner refuses permission bypass (a session started in it at the
   *  desk still shows it). */
  startable: boolean;
};

export const PERMISSION_MODES: readonly PermissionModeEntry[] = [
  { value: 'default', label: 'Ask', startLabel: 'Ask for approvals', hint: 'Edits and commands wait for an answer', startable: true },
  { value: 'acceptEdits', label: 'Accept edits', startLabel: 'Accept edits', hint: 'File edits go ahead; commands still ask', startable: true },
  { value: 'plan', label: 'Plan', startLabel: 'Plan first', hint: 'The agent reads and plans; nothing is changed in this mode', startable: true },
  { value: 'auto', label: 'Auto', startLabel: 'Auto', hint: "Claude's safety check runs what it judges safe and asks about the rest", startable: true },
  { value: 'dontAsk', label: "Don't ask", startLabel: "Don't ask", hint: 'Anything your settings rules do not allow is refused, nothing waits', startable: true },
  { value: 'bypassPermissions', label: 'Bypass', startLabel: 'Bypass', hint: 'Nothing is asked (started that way)', startable: false },
];

export function modeLabel(mode: PermissionMode): string {
  return PERMISSION_MODES.find((m) => m.value === mode)?.label ?? mode;
}
