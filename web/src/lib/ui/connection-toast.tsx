// connection-toast.tsx: when live updates stop (the hub restarted, the phone lost its network), a
// pill at the top says so on every screen, including a phone's chat where the list's indicator is
// not visible. It waits a moment before showing, so a normal first connect never flashes it.
import { useEffect, useState } from 'react';
import { useConnectionState } from '../queries.ts';
import { Spinner } from './badge.tsx';
import './connection-toast.css';

/** Drops shorter than this are not worth a flash on screen. */
const SHOW_AFTER_MS = 800;

export function ConnectionToast() {
  const state = useConnectionState();
  const troubled = state.kind === 'reconnecting' || state.kind === 'refused';
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!troubled) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [troubled]);

  if (!visible || !troubled) return null;
  return (
    <div className="connection-toast" role="status" aria-live="polite">
      {state.kind === 'refused' ? (
        <>This hub speaks a newer protocol. Reload the page to update.</>
      ) : (
        <>
          <Spinner size={14} />
          Reconnecting…
        </>
      )}
    </div>
  );
}
