// find-dialog.tsx: Find inside one session, in a modal dialog: a search field (literal by default;
// "Wildcards" makes `*` and `?` special; "Match case"), then the places found, grouped by chat,
// terminal and files, each a link that opens the place (the dialog closes as it goes).
//
//   submit ─POST /api/sessions/:id/find─► hub ─► { chat, terminal, files } ─► find-results.tsx
//
// The last search of this session stays while the page lives (reopening shows it); a count is
// announced to screen readers when results arrive; Esc closes.
import { useState, type FormEvent } from 'react';
import type { FindAnswer, Session } from '@tether/shared';
import { hubApi } from '../../lib/hub.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { useModal } from '../../lib/ui/use-modal.ts';
import { FindResults, countPlaces } from './find-results.tsx';
import '../lifecycle/lifecycle.css';
import './find.css';

type Search = { q: string; wildcard: boolean; caseSensitive: boolean };
type Load = { kind: 'idle' } | { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'found'; answer: FindAnswer; search: Search };

/** The last search per session, kept while the page lives. */
const remembered = new Map<string, { search: Search; load: Load }>();

export function FindDialog({ session, onClose }: { session: Session; onClose: () => void }) {
  const last = remembered.get(session.id);
  const [search, setSearch] = useState<Search>(last?.search ?? { q: '', wildcard: false, caseSensitive: false });
  const [load, setLoad] = useState<Load>(last?.load ?? { kind: 'idle' });
  const { titleId, textId, props } = useModal({ busy: false, onClose, role: 'dialog' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const q = search.q.trim();
    if (q === '') return;
    const asked = { ...search, q };
    setLoad({ kind: 'loading' });
    let next: Load;
    try {
      const answer = await hubApi.find({ sessionId: session.id, body: { q, mode: asked.wildcard ? 'wildcard' : 'literal', caseSensitive: asked.caseSensitive } });
      next = { kind: 'found', answer, search: asked };
    } catch (failure) {
      next = { kind: 'failed', message: failure instanceof Error ? failure.message : String(failure) };
    }
    remembered.set(session.id, { search: asked, load: next });
    setLoad(next);
  };

  return (
    <dialog {...props} className="confirm-dialog find-dialog">
      <div className="find-head">
        <h2 id={titleId} className="confirm-dialog-title">
          Find in session
        </h2>
        <button type="button" className="button button-quiet find-close" onClick={onClose}>
          Close
        </button>
      </div>
      <p id={textId} className="find-help">
        Searches the chat, the terminal's scrollback and the session's files (not <code>.git</code>, not links).
      </p>
      <form role="search" className="find-form" onSubmit={(e) => void submit(e)}>
        <div className="find-row">
          <input
            type="search"
            className="field-input find-input"
            aria-label="Text to find"
            placeholder={search.wildcard ? 'Text, * any run, ? one character' : 'Text to find'}
            maxLength={200}
            value={search.q}
            autoFocus
            enterKeyHint="search"
            onChange={(e) => setSearch({ ...search, q: e.target.value })}
          />
          <button type="submit" className="button button-primary" disabled={search.q.trim() === '' || load.kind === 'loading'}>
            {load.kind === 'loading' ? <Spinner size={14} /> : null}
            Find
          </button>
        </div>
        <div className="find-options">
          <label>
            <input type="checkbox" checked={search.caseSensitive} onChange={(e) => setSearch({ ...search, caseSensitive: e.target.checked })} /> Match case
          </label>
          <label>
            <input type="checkbox" checked={search.wildcard} onChange={(e) => setSearch({ ...search, wildcard: e.target.checked })} /> Wildcards (<code>*</code> <code>?</code>)
          </label>
        </div>
      </form>
      <p className="find-status" role="status">
        {load.kind === 'loading' ? 'Searching…' : load.kind === 'found' ? summary(load.answer) : ''}
      </p>
      {load.kind === 'failed' ? (
        <p className="confirm-dialog-error" role="alert">
          Couldn't search: {load.message}
        </p>
      ) : null}
      {load.kind === 'found' ? <FindResults session={session} answer={load.answer} onOpen={onClose} /> : null}
    </dialog>
  );
}

function summary(answer: FindAnswer): string {
  const n = countPlaces(answer);
  return n === 0 ? 'Nothing found.' : `${n} place${n === 1 ? '' : 's'} found.`;
}
