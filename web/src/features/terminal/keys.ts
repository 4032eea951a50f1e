// keys.ts: the bytes a terminal key sends, for the quick-keys bar a phone keyboard lacks, and the
// sticky Ctrl / Alt modifiers applied to the next key typed.

/** Byte sequences as xterm sends them in normal cursor mode (what claude's TUI reads). */
export const QUICK_KEYS = [
  { id: 'esc', label: 'Esc', name: 'Esc', data: '\x1b' },
  { id: 'tab', label: 'Tab', name: 'Tab', data: '\t' },
  { id: 'ctrl-c', label: '^C', name: 'Ctrl-C', data: '\x03' },
  { id: 'left', label: '←', name: 'Left', data: '\x1b[D' },
  { id: 'up', label: '↑', name: 'Up', data: '\x1b[A' },
  { id: 'down', label: '↓', name: 'Down', data: '\x1b[B' },
  { id: 'right', label: '→', name: 'Right', data: '\x1b[C' },
  { id: 'home', label: 'Home', name: 'Home', data: '\x1b[H' },
  { id: 'end', label: 'End', name: 'End', data: '\x1b[F' },
  { id: 'pgup', label: 'PgUp', name: 'PgUp (page up)', data: '\x1b[5~' },
  { id: 'pgdn', label: 'PgDn', name: 'PgDn (page down)', data: '\x1b[6~' },
] as const;

export type Modifiers = { ctrl: boolean; alt: boolean };

/** Applies sticky modifiers to what the keyboard typed: Ctrl turns a letter (or @[\]^_ ?) into its
 *  control code, Alt prefixes Esc. Only the first character is modified, as a real key would be. */
export function applyModifiers(data: string, modifiers: Modifiers): string {
  if (!data || (!modifiers.ctrl && !modifiers.alt)) return data;
  let first = data[0] ?? '';
  const rest = data.slice(1);
  if (modifiers.ctrl) {
    const upper = first.toUpperCase();
    const code = upper.charCodeAt(0);
    if (code >= 0x40 && code <= 0x5f) first = String.fromCharCode(code & 0x1f);
    else if (first === '?') first = '\x7f';
    else if (first === ' ') first = '\x00';
  }
  return (modifiers.alt ? '\x1b' : '') + first + rest;
}
