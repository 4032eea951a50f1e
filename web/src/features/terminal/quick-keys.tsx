// quick-keys.tsx: the keys a phone keyboard does not have (Esc, Tab, Ctrl-C, arrows, Home/End,
// PgUp/PgDn) and sticky Ctrl / Alt that modify the next key typed. Scrolls sideways on narrow screens.
// While nothing reads keys (connecting, the connection to the hub lost, the session ended) they are aria-disabled,
// not disabled: a toolbar keeps its dimmed items focusable (so the sideways scroll stays reachable by
// keyboard and a screen reader still finds them), and presses are ignored here.
import { QUICK_KEYS, type Modifiers } from './keys.ts';

export function QuickKeys({
  onKey,
  modifiers,
  onToggle,
  disabled,
}: {
  onKey: (data: string) => void;
  modifiers: Modifiers;
  onToggle: (modifier: keyof Modifiers) => void;
  disabled: boolean;
}) {
  return (
    <div className="quick-keys" role="toolbar" aria-label="Terminal keys">
      <button
        type="button"
        className="quick-key quick-key-mod"
        aria-pressed={modifiers.ctrl}
        onClick={() => disabled || onToggle('ctrl')}
        aria-disabled={disabled}
      >
        Ctrl
      </button>
      <button
        type="button"
        className="quick-key quick-key-mod"
        aria-pressed={modifiers.alt}
        onClick={() => disabled || onToggle('alt')}
        aria-disabled={disabled}
      >
        Alt
      </button>
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
