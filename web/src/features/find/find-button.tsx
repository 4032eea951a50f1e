// find-button.tsx: "Find in session" in the session header: one button that opens the Find dialog
// (loaded on first open, so it costs the first load nothing). The route puts it among the tools.
import { lazyPart } from '../../lib/ui/lazy-part.tsx';
import type { Session } from '@tether/shared';
import { IconSearch } from '../../lib/ui/icons.tsx';
import { useModalOpener } from '../../lib/ui/use-modal.ts';

const FindDialog = lazyPart(() => import('./find-dialog.tsx').then((m) => m.FindDialog));

export function FindButton({ session }: { session: Session }) {
  const { open, show, close, triggerRef } = useModalOpener();
  return (
    <>
      <button ref={triggerRef} type="button" className="icon-button find-button" aria-label="Find in session" title="Find in session" aria-haspopup="dialog" onClick={show}>
        <IconSearch size={20} />
      </button>
      {open ? <FindDialog session={session} onClose={close} /> : null}
    </>
  );
}
