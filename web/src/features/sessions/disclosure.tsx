// disclosure.tsx: a button in the session header that opens a small panel under it: share, approval
// history, and the "Bypass" and "who is in control" chips that explain themselves on tap (with the
// same words as a hover tooltip). Escape or a tap outside closes it (use-popover.ts).
import type { ReactNode } from 'react';
import { usePopover } from '../../lib/ui/use-popover.ts';

export function Disclosure({
  label,
  title,
  className,
  rootClassName = 'info-popover',
  chip,
  panel,
}: {
  /** The button's accessible name. */
  label: string;
  /** The hover tooltip. */
  title: string;
  className: string;
  rootClassName?: string;
  chip: ReactNode;
  /** The panel, given the id the button points at. */
  panel: (id: string) => ReactNode;
}) {
  const { open, panelId, rootRef, triggerProps } = usePopover();
  return (
    <div className={rootClassName} ref={rootRef}>
      <button
        {...triggerProps('dialog')}
        className={className}
        aria-label={label}
        title={title}
      >
        {chip}
      </button>
      {open ? panel(panelId) : null}
    </div>
  );
}

/** A chip whose panel is a title and a short explanation. */
export function InfoPopover({ label, chip, className, title, children }: { label: string; chip: ReactNode; className: string; title: string; children: ReactNode }) {
  return (
    <Disclosure
      label={label}
      title={title}
      className={className}
      chip={chip}
      panel={(id) => (
        <div className="model-panel info-panel" id={id} role="dialog" aria-label={title}>
          <p className="model-panel-title">{title}</p>
          {children}
        </div>
      )}
    />
  );
}
