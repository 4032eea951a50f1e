// push-toggle.tsx: the "Notifications" switch in the account menu. Says why it cannot be on when
// it cannot (no service worker over plain http, permission denied in the browser's settings).
import { useEffect, useState } from 'react';
import { IconBell } from '../lib/ui/icons.tsx';
import { disablePush, enablePush, getPushState, type PushState } from './push.ts';
import './push-toggle.css';

const WHY_NOT: Partial<Record<PushState, string>> = {
  unsupported: 'Needs https (or the installed app)',
  denied: 'Blocked in browser settings',
};

export function PushToggle() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let alive = true;
    getPushState().then((s) => alive && setState(s), () => alive && setState('unsupported'));
    return () => {
      alive = false;
    };
  }, []);

  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      setState(state === 'on' ? await disablePush() : await enablePush());
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  const on = state === 'on';
  const blocked = state === 'unsupported' || state === 'denied';
  return (
    <button
      type="button"
      role="menuitemcheckbox"
      aria-checked={on}
      className="menu-item push-toggle"
      disabled={state === null || blocked || busy}
      onClick={() => void toggle()}
      title={error ?? undefined}
    >
      <IconBell size={18} />
      <span className="push-toggle-text">
        Notifications
        <span className="push-toggle-note">{error ? "Couldn't change" : (WHY_NOT[state ?? 'off'] ?? (on ? 'On: approvals and finished turns' : 'Off'))}</span>
      </span>
    </button>
  );
}
