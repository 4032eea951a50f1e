// file-editor.tsx: a plain editor for one text file of the session's folder, made for a phone: one
// text area (no IDE), Save and Cancel under it. A save names the content the file was opened with;
// when the file changed since (the agent, the desk), nothing is written and the editor asks, showing
// the difference between what the file holds now and what the person wrote: save theirs anyway,
// take the file's, or keep editing. Mid-turn it asks as git actions do ("Save anyway").
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FileWriteAnswer } from '@tether/shared';
import { DiffBody } from './diff-file.tsx';
import { textDiff } from './text-diff.ts';
import { useFileSave } from './use-file-save.ts';

type Stale = Extract<FileWriteAnswer, { kind: 'stale' }>;

export function FileEditor(props: { sessionId: string; path: string; text: string; hash: string; onClose: () => void }) {
  // A browser's text area holds LF; the runner writes the file's own line endings back.
  const opened = useMemo(() => props.text.replace(/\r\n/g, '\n'), [props.text]);
  const [draft, setDraft] = useState(opened);
  const [base, setBase] = useState(props.hash);
  const saving = useFileSave({ sessionId: props.sessionId, path: props.path, onWritten: props.onClose });
  const { outcome } = saving;
  const label = `Edit ${props.path}`;
  return (
    <form
      className="file-editor"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        saving.save({ text: draft, base, confirm: false });
      }}
    >
      {outcome?.kind === 'stale' ? (
        <StaleQuestion
          path={props.path}
          stale={outcome.stale}
          draft={draft}
          onSaveMine={() => {
            setBase(outcome.stale.hash);
            saving.save({ text: draft, base: outcome.stale.hash, confirm: outcome.save.confirm });
          }}
          onTakeTheirs={
            outcome.stale.text === null
              ? null
              : () => {
                  setDraft(outcome.stale.text!.replace(/\r\n/g, '\n'));
                  setBase(outcome.stale.hash);
                  saving.dismiss();
                }
          }
          onKeepEditing={saving.dismiss}
        />
      ) : null}
      {outcome?.kind === 'mid-turn' ? (
        <div className="git-outcome git-outcome-failed file-editor-outcome" role="alert">
          <p>The agent is mid-turn: it may be editing this file too.</p>
          <button type="button" className="button" onClick={() => saving.save({ ...outcome.save, confirm: true })}>
            Save anyway
          </button>
        </div>
      ) : null}
      {outcome?.kind === 'failed' ? (
        <p className="git-outcome git-outcome-failed file-editor-outcome" role="alert">
          Not saved: {outcome.error}
        </p>
      ) : null}
      <textarea
        className={`file-editor-text${outcome ? ' file-editor-text-asking' : ''}`}
        aria-label={label}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        autoComplete="off"
        disabled={saving.saving}
      />
      <div className="file-editor-buttons">
        <button type="submit" className="button button-primary" disabled={saving.saving || draft === opened || outcome?.kind === 'stale'}>
          {saving.saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button" onClick={props.onClose} disabled={saving.saving}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The file changed since it was opened: the difference (its lines now, removed; the person's,
 *  added) and what to do about it. */
function StaleQuestion(props: { path: string; stale: Stale; draft: string; onSaveMine: () => void; onTakeTheirs: (() => void) | null; onKeepEditing: () => void }) {
  const { stale, draft } = props;
  const diff = useMemo(() => (stale.text === null ? null : { path: props.path, binary: false, hunks: textDiff(stale.text, draft), lineCount: 0, truncated: false }), [stale.text, draft, props.path]);
  // The question takes the focus (a phone's keyboard closes, the question is in view).
  const self = useRef<HTMLElement>(null);
  useEffect(() => {
    self.current?.focus();
    self.current?.scrollIntoView({ block: 'start' });
  }, []);
  return (
    <section ref={self} tabIndex={-1} className="file-stale" role="alertdialog" aria-labelledby="file-stale-title" aria-describedby="file-stale-what">
      <h2 id="file-stale-title" className="file-stale-title">
        This file changed since you opened it
      </h2>
      <p id="file-stale-what" className="file-stale-what">
        {diff ? (
          <>
            Nothing was saved. <span className="change-del">−</span> lines are in the file now, <span className="change-add">+</span> lines are yours.
          </>
        ) : (
          'Nothing was saved. It is no longer a text file that can be shown here.'
        )}
      </p>
      {diff && diff.hunks.length > 0 ? <DiffBody diff={diff} /> : diff ? <p className="diff-note">Your text is the same as the file's now.</p> : null}
      <div className="file-editor-buttons">
        <button type="button" className="button button-primary" onClick={props.onSaveMine}>
          Save mine anyway
        </button>
        {props.onTakeTheirs ? (
          <button type="button" className="button" onClick={props.onTakeTheirs}>
            Take the file's version
          </button>
        ) : null}
        <button type="button" className="button" onClick={props.onKeepEditing}>
          Keep editing
        </button>
      </div>
    </section>
  );
}
