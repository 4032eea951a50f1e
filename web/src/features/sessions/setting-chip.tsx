// setting-chip.tsx: one setting of a session as a chip in its header (the model, the permission
// mode) and the panel that switches it. The chip spins while a switch is on its way to the runner
// and is disabled once the session has ended; a choice made in the panel closes it and gives the
// focus back to the chip (Escape and a tap outside: use-popover.ts).
import type { ReactNode } from 'react';
import type { Session } from '@tether/shared';
import { isFinalStatus } from '@tether/shared/wire';
import { Spinner } from '../../lib/ui/badge.tsx';
import { usePopover } from '../../lib/ui/use-popover.ts';

export function SettingChip(o: {
  session: Session;
  /** What the chip reads. */
  text: string;
  /** The chip's accessible name. */
  label: string;
  title?: string | undefined;
  /** A switch was asked for and the runner has not reported it yet. */
  pending: boolean;
  /** The panel, given the id the chip points at and `done` to call once a choice is sent. */
  panel: (panel: { id: string; done: () => void }) => ReactNode;
}) {
  const { open, setOpen, panelId, rootRef, buttonRef, triggerProps } = usePopover();
  const done = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  return (
    <div className="model-picker" ref={rootRef}>
      <button {...triggerProps('dialog')} className="model-chip" aria-label={o.label} title={o.title} disabled={isFinalStatus(o.session.status)}>
        {o.pending ? <Spinner size={11} /> : null}
        <span className="model-chip-text">{o.text}</span>
      </button>
      {open ? o.panel({ id: panelId, done }) : null}
    </div>
  );
}
