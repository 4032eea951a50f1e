// action-button.tsx: an approval form's answer button: every one is disabled while an answer is on
// its way, and the one that sent it shows a spinner.
import type { ReactNode } from 'react';
import { Spinner } from '../../lib/ui/badge.tsx';

export function ActionButton(props: {
  /** Which answer this button sends (the form's `busy` names the one on its way). */
  id: string;
  busy: string | null;
  tone?: 'primary' | 'danger';
  /** Disabled for a reason of the form's own, on top of `busy`. */
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={props.tone ? `button button-${props.tone}` : 'button'}
      onClick={props.onClick}
      disabled={props.busy !== null || props.disabled === true}
    >
      {props.busy === props.id ? <Spinner size={16} /> : null}
      {props.children}
    </button>
  );
}
