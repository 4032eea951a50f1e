// refresh-button.tsx: read the session's directory again now (the views also refresh at the end of
// each turn). Spins while a read is under way; stays pressable, a second press just asks again.
import { Spinner } from '../../lib/ui/badge.tsx';
import { IconRefresh } from '../../lib/ui/icons.tsx';

export function RefreshButton({ label, busy, onClick }: { label: string; busy: boolean; onClick: () => void }) {
  return (
    <button type="button" className="icon-button workspace-refresh" aria-label={label} title={label} aria-busy={busy} onClick={onClick}>
      {busy ? <Spinner size={18} /> : <IconRefresh size={19} />}
    </button>
  );
}
