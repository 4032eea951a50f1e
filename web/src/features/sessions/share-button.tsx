// share-button.tsx: "Share read-only" in the session header: one button that opens the share panel
// (loaded on first open). A disclosure like the model picker: Escape or a tap outside closes it.
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { IconShare } from '../../lib/ui/icons.tsx';

const SharePanel = lazy(() => import('./share-panel.tsx').then((m) => ({ default: m.SharePanel })));

export function ShareButton({ sessionId }: { sessionId: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="share-control" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label="Share read-only"
        title="Share read-only"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((v) => !v)}
      >
        <IconShare size={21} />
      </button>
      {open ? (
        <Suspense fallback={null}>
          <SharePanel id={panelId} sessionId={sessionId} />
        </Suspense>
      ) : null}
    </div>
  );
}
