// diff-file.tsx: one changed file in the Changes view: its name, what happened to it (+/−), a link
// to open it whole, and its hunks with old and new line numbers and syntax colour. A binary file is
// named, never drawn; a cut diff says how much is left out.
import { useMemo, useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { ChangedFile, FileDiff } from '@tether/shared';
import { IconChevron } from '../../lib/ui/icons.tsx';
import { diffRows } from './diff-rows.ts';
import { useGrammar } from './use-grammar.ts';

const STATUS_LABEL: Record<ChangedFile['status'], string> = {
  modified: 'Modified',
  added: 'Added',
  deleted: 'Deleted',
  renamed: 'Renamed',
  copied: 'Copied',
  typechange: 'Type changed',
  untracked: 'New, untracked',
};
const STATUS_LETTER: Record<ChangedFile['status'], string> = { modified: 'M', added: 'A', deleted: 'D', renamed: 'R', copied: 'C', typechange: 'T', untracked: 'U' };

export function ChangeCounts({ file }: { file: ChangedFile }) {
  if (file.binary) return <span className="change-counts">binary</span>;
  return (
    <span className="change-counts">
      {file.additions !== null ? <span className="change-add">+{file.additions}</span> : null}
      {file.deletions !== null && file.deletions > 0 ? <span className="change-del">−{file.deletions}</span> : null}
    </span>
  );
}

export function StatusLetter({ status }: { status: ChangedFile['status'] }) {
  return (
    <span className={`change-status change-status-${status}`} title={STATUS_LABEL[status]}>
      <span aria-hidden="true">{STATUS_LETTER[status]}</span>
      <span className="sr-only">{STATUS_LABEL[status]}</span>
    </span>
  );
}

export function DiffFile({ sessionId, file, diff, focused }: { sessionId: string; file: ChangedFile; diff: FileDiff | null; focused: boolean }) {
  const [open, setOpen] = useState(true);
  const bodyId = `diff-${encodeURIComponent(file.path)}`;
  return (
    <section className="diff-file" data-path={file.path} data-focused={focused ? 'yes' : undefined} aria-label={file.path}>
      <div className="diff-file-head">
        <button type="button" className="diff-file-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((v) => !v)}>
          <IconChevron size={16} className="diff-file-chevron" />
          <StatusLetter status={file.status} />
          <span className="diff-file-name">
            {file.oldPath ? <span className="diff-file-old">{file.oldPath} → </span> : null}
            {file.path}
          </span>
          <ChangeCounts file={file} />
        </button>
        {file.status !== 'deleted' ? (
          <Link to="/sessions/$sessionId/files" params={{ sessionId }} search={{ file: file.path }} className="diff-file-open">
            Open<span className="sr-only"> {file.path}</span>
          </Link>
        ) : null}
      </div>
      {open ? <div id={bodyId}>{diff ? <DiffBody diff={diff} /> : <p className="diff-note">Loading…</p>}</div> : null}
    </section>
  );
}

export function DiffBody({ diff }: { diff: FileDiff }) {
  const language = useGrammar(diff.path);
  const rows = useMemo(() => diffRows(diff.hunks, language), [diff.hunks, language]);
  if (diff.binary) return <p className="diff-note">Binary file: not shown.</p>;
  if (rows.length === 0) return <p className="diff-note">{diff.truncated ? 'This diff could not be read whole.' : 'No line changed (a rename or a mode change).'}</p>;
  const shown = diff.hunks.reduce((n, h) => n + h.lines.length, 0);
  return (
    <>
      <div className="diff-rows hljs-scope" role="group" aria-label={`Diff of ${diff.path}`}>
        {rows.map((row, i) => {
          if (row.kind === 'hunk') return <div key={i} className="diff-row diff-row-hunk">{row.text}</div>;
          if (row.kind === 'note') return <div key={i} className="diff-row diff-row-note">{row.text}</div>;
          return (
            <div key={i} className={`diff-row diff-row-${row.kind}`}>
              <span className="diff-no" aria-hidden="true">{row.old ?? ''}</span>
              <span className="diff-no" aria-hidden="true">{row.new ?? ''}</span>
              <span className="diff-mark">
                <span aria-hidden="true">{row.kind === 'add' ? '+' : row.kind === 'del' ? '−' : ' '}</span>
                {row.kind !== 'context' ? <span className="sr-only">{row.kind === 'add' ? 'added: ' : 'removed: '}</span> : null}
              </span>
              {/* highlight.js escapes the text; its only markup is its own token spans. */}
              <code className="diff-code" dangerouslySetInnerHTML={{ __html: row.html || ' ' }} />
            </div>
          );
        })}
      </div>
      {diff.truncated ? (
        <p className="diff-note">
          Showing {shown.toLocaleString()} of {diff.lineCount.toLocaleString()} changed lines. Open the file to read it whole.
        </p>
      ) : null}
    </>
  );
}
