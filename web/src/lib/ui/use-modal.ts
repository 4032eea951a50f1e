// use-modal.ts: a <dialog role="alertdialog"> (or a plain "dialog": a list to look at, not a question)
// shown modal as it mounts (the page behind is inert) and closed as it unmounts, labelled by its
// title and described by its text. Esc cancels, unless what the person chose is already on its way
// (`busy`): then the hub decides, not the dialog. `useModalOpener`: the button that opens one.
import { useId, useLayoutEffect, useRef, useState, type SyntheticEvent } from 'react';

export function useModal(o: { busy: boolean; onClose: () => void; role?: 'alertdialog' | 'dialog' }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  // A layout effect: its cleanup runs while the dialog is still in the page, so close() gives the
  // focus back in the same commit. After React removed it, close() finds the focus already on
  // <body> and restores nothing, and the opener's next-frame focus leaves a gap a key can fall into.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return {
    titleId,
    textId,
    /** Spread on the <dialog>. */
    props: {
      ref,
      role: o.role ?? 'alertdialog',
      'aria-modal': true,
      'aria-labelledby': titleId,
      'aria-describedby': textId,
      onCancel: (event: SyntheticEvent<HTMLDialogElement>) => {
        event.preventDefault();
        if (!o.busy) o.onClose();
      },
    } as const,
  };
}

/** The button that opens a modal dialog: whether it is open, and `close`, which gives the focus back
 *  to the button once the dialog is gone (the next frame: the dialog returns it to where it was
 *  before, which is the button only if nothing moved since). */
export function useModalOpener() {
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    requestAnimationFrame(() => triggerRef.current?.focus());
  };
  return { open, show: () => setOpen(true), close, triggerRef };
}
