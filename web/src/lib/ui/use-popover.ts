// use-popover.ts: the open state of a small disclosure (account menu, model, share, history, the header
// info chips): Escape closes it and gives focus back to its button, a tap outside closes it. The
// button's own props come from here too (`triggerProps`), so each popover states only its name.
import { useEffect, useId, useRef, useState } from 'react';

export function usePopover() {
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

  /** The props of the button that opens the popover: what it opens (a dialog or a menu), whether it
   *  is open and which panel it controls, and the toggle. */
  const triggerProps = (opens: 'dialog' | 'menu') => ({
    ref: buttonRef,
    type: 'button' as const,
    'aria-haspopup': opens,
    'aria-expanded': open,
    'aria-controls': open ? panelId : undefined,
    onClick: () => setOpen((v) => !v),
  });

  return { open, setOpen, panelId, rootRef, buttonRef, triggerProps };
}
