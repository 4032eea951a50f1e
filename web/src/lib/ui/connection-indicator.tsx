// connection-indicator.tsx: a dot and a word saying whether live updates flow (connected,
// connecting, reconnecting, refused). It is a live region, so screen readers hear a drop.
import { useConnectionState } from '../queries.ts';

export function ConnectionIndicator() {
  const state = useConnectionState();
  let label: string;
  let tone: 'ok' | 'busy' | 'danger';
  switch (state.kind) {
    case 'connected':
      label = 'Live';
      tone = 'ok';
      break;
    case 'connecting':
    case 'offline':
      label = 'Connecting…';
      tone = 'busy';
      break;
    case 'reconnecting':
      label = 'Reconnecting…';
      tone = 'busy';
      break;
    case 'refused':
      label = 'Update needed';
      tone = 'danger';
      break;
    default: {
      const never: never = state;
      label = String(never);
      tone = 'danger';
    }
  }
  return (
    <span
      className={`connection connection-${tone}`}
      role="status"
      aria-label={`Connection: ${label.replace('…', '')}`}
      title={state.kind === 'refused' ? state.reason : undefined}
      data-state={state.kind}
    >
      <span className="connection-dot" aria-hidden="true" />
      <span className="connection-label">{label}</span>
    </span>
  );
}
