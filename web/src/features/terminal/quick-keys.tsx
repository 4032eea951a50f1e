// quick-keys.tsx: the keys a phone keyboard does not have (Esc, Tab, Ctrl-C, arrows, Home/End,
// PgUp/PgDn) and sticky Ctrl / Alt that modify the next key typed. Scrolls sideways on narrow screens.
// While nothing reads keys (connecting, the connection to the hub lost, the session ended) they are aria-disabled,
// not disabled: a toolbar keeps its dimmed items focusable (so the sideways scroll stays reachable by
// keyboard and a screen reader still finds them), and presses are ignored here.
import { QUICK_KEYS, type Modifiers } from './keys.ts';
import type { StickyModifiers } from './sticky-modifiers.ts';

const MODIFIER_KEYS: readonly { modifier: keyof Modifiers; label: string }[] = [
  { modifier: 'ctrl', label: 'Ctrl' },
  { modifier: 'alt', label: 'Alt' },
];

export function QuickKeys({ onKey, sticky, disabled }: { onKey: (data: string) => void; sticky: Pick<StickyModifiers, 'held' | 'toggle'>; disabled: boolean }) {
  return (
    <div className="quick-keys" role="toolbar" aria-label="Terminal keys">
      {MODIFIER_KEYS.map(({ modifier, label }) => (
        <button
          key={modifier}
          type="button"
          className="quick-key quick-key-mod"
          aria-pressed={sticky.held[modifier]}
          onClick={() => disabled || sticky.toggle(modifier)}
          aria-disabled={disabled}
        >
          {label}
        </button>
      ))}
      {QUICK_KEYS.map((key) => (
        <button
          key={key.id}
          type="button"
          className="quick-key"
          aria-label={key.name}
          // Keep the focus (and the phone keyboard) where it is.
          onPointerDown={(event) => event.preventDefault()}
          onClick={() => disabled || onKey(key.data)}
          aria-disabled={disabled}
        >
          {key.label}
        </button>
      ))}
    </div>
  );
}
