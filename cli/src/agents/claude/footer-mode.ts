// footer-mode.ts: claude's permission mode as its footer under the input box shows it. The footer is
// the one place the mode shows before any hook fires (a Shift+Tab at an idle prompt), so the runner
// reads it there; hook payloads (`permission_mode`) stay the authority when they speak.
//
//   2.1.330: "⏵⏵ auto mode on (shift+tab to cycle)", "⏸ manual mode on · ? for shortcuts",
//            "⏵⏵ accept edits on …", "⏸ plan mode on …", "⏵⏵ don't ask on …", "⏵⏵ bypass permissions on …"
//   2.1.197: the same words, and no mode word at all in the default (manual) mode.

/** claude's permission modes (the same names as shared's PermissionMode; screen imports nothing of ours). */
export type FooterMode = 'default' | 'acceptEdits' | 'plan' | 'auto' | 'dontAsk' | 'bypassPermissions';

const FOOTER_MODES: Array<[RegExp, FooterMode]> = [
  [/accept edits on/i, 'acceptEdits'],
  [/plan mode on/i, 'plan'],
  [/auto mode on/i, 'auto'],
  [/don.t ask on/i, 'dontAsk'],
  [/bypass permissions on/i, 'bypassPermissions'],
  [/manual mode on/i, 'default'],
];

/** The mode the footer rows name; `default` when they name none (2.1.197's manual mode). */
export function modeFromFooter(footer: readonly string[]): FooterMode {
  const text = footer.join(' ');
  for (const [pattern, mode] of FOOTER_MODES) if (pattern.test(text)) return mode;
  return 'default';
}
