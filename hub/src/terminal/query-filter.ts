// query-filter.ts: drops the automatic answers a viewer's terminal emulator sends back to the PTY.
// claude asks the terminal questions (device attributes `ESC[c`, `ESC[>0q`, cursor position) and
// turns on focus reporting (`?1004h`); every viewer's xterm answers. If several viewers answered,
// claude would read garbage at its prompt, so only the size/input owner's answers pass.

// Each pattern is one reply an emulator sends on its own, never something a person types.
const REPLY_PATTERNS: readonly RegExp[] = [
  /\x1b\[\?[\d;]*c/g, // DA1 reply
  /\x1b\[>[\d;]*c/g, // DA2 reply
  /\x1b\[\d+;\d+R/g, // cursor position report
  /\x1bP>\|[^\x1b]*\x1b\\/g, // XTVERSION reply (DCS > | text ST)
  /\x1bP[01]\$r[^\x1b]*\x1b\\/g, // DECRQSS reply
  /\x1b\[\??\d+;\d+\$y/g, // DECRPM mode report
  /\x1b\][0-9]+;rgb:[0-9a-fA-F/]+(?:\x07|\x1b\\)/g, // OSC 10/11 colour replies
  /\x1b\[[IO]/g, // focus in / out
];

export function stripTerminalReplies(data: string): string {
  let out = data;
  for (const re of REPLY_PATTERNS) out = out.replace(re, '');
  return out;
}

/** What to do with input from one viewer. Non-owners lose their emulator's automatic replies;
 *  what is left (real keystrokes) is theirs to send, and typing makes them take control. */
export function filterViewerInput(options: { data: string; fromOwner: boolean }):
  | { kind: 'drop' }
  | { kind: 'write'; data: string; takesControl: boolean } {
  if (options.fromOwner) return { kind: 'write', data: options.data, takesControl: false };
  const typed = stripTerminalReplies(options.data);
  if (typed.length === 0) return { kind: 'drop' };
  return { kind: 'write', data: typed, takesControl: true };
}
