// route-error.tsx: what a screen shows when it cannot be drawn (the router's default error screen).
// A screen whose code this device never fetched, opened offline, says so and opens by itself once
// the browser is back online (lib/route-code.ts); any other failure says what went wrong and offers
// a reload. The list and the session's header around it stay.
import { useEffect } from 'react';
import { useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { CodeNotHereError, reloadShownCode, retryAtOnline } from '../route-code.ts';

export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const notHere = error instanceof CodeNotHereError;
  useEffect(() => {
    if (!notHere) return;
    // Failed just after coming back online: the 'online' that would retry has passed already.
    return retryAtOnline(() => void reloadShownCode(router).then(reset, () => {}), { soon: navigator.onLine });
  }, [notHere, router, reset]);

  return notHere ? (
    <div className="detail-placeholder" role="status">
      <p className="detail-placeholder-title">Not on this device yet</p>
      <p>This screen has not been opened here before, and you are offline. It opens as soon as you are back online.</p>
    </div>
  ) : (
    <div className="detail-placeholder" role="alert">
      <p className="detail-placeholder-title">This screen could not open</p>
      <p>{error instanceof Error ? error.message : String(error)}</p>
      <button type="button" className="button" onClick={() => location.reload()}>
        Reload
      </button>
    </div>
  );
}
