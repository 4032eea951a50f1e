// form-footer.tsx: the end of a review card's small forms (a reply to the parent, Send on): the
// error, if the last try failed, then Cancel and the form's action, both held while it is sent.
import { Spinner } from '../../lib/ui/badge.tsx';

export function ReviewFormFooter(o: { error: string | null; busy: boolean; canSend: boolean; action: string; onCancel: () => void; onSend: () => void }) {
  return (
    <>
      {o.error ? (
        <p className="review-error" role="alert">
          {o.error}
        </p>
      ) : null}
      <div className="review-actions">
        <button type="button" className="button button-quiet" onClick={o.onCancel} disabled={o.busy}>
          Cancel
        </button>
        <button type="button" className="button button-primary" onClick={o.onSend} disabled={o.busy || !o.canSend}>
          {o.busy ? <Spinner size={16} /> : null} {o.action}
        </button>
      </div>
    </>
  );
}
