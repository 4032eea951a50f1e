// file-changes.tsx: an agent's change to files (shared FileChanges: the agent's room translated its own
// patch format) drawn as each file, what happens to it, and its unified diff. Used by the approval
// sheet and the chat's tool cards; it knows no agent.
import { useState, type ReactNode } from 'react';
import { FileChangesInputSchema, type FileChange } from '@tether/shared';
import { ClippedPre, type RenderPath } from './clipped-pre.tsx';
import './tool-input.css';

/** Lines shown per file until "Show all": a 5,000-line generated file must not freeze a phone. */
const PREVIEW_LINES = 200;
const VERB: Record<FileChange['kind'], string> = { add: 'Add', delete: 'Delete', update: 'Edit' };

function lineClass(line: string): string {
  if (line.startsWith('@@')) return 'diff-line diff-hunk';
  if (line.startsWith('+')) return 'diff-line diff-add';
  if (line.startsWith('-')) return 'diff-line diff-del';
  return 'diff-line';
}

function UnifiedDiff({ diff, label }: { diff: string; label: string }) {
  const [full, setFull] = useState(false);
  const lines = diff.split('\n');
  const shown = full ? lines : lines.slice(0, PREVIEW_LINES);
  return (
    <>
      <pre className="diff" aria-label={label}>
        {shown.map((line, i) => {
          const hunk = line.startsWith('@@');
          const sign = hunk ? '' : line.slice(0, 1);
          return (
            <span key={i} className={lineClass(line)}>
              {hunk ? null : (
                <span aria-hidden="true" className="diff-sign">
                  {sign === '-' ? '−' : sign === '+' ? '+' : ' '}
                </span>
              )}
              {hunk ? line : line.slice(1)}
              {'\n'}
            </span>
          );
        })}
      </pre>
      {shown.length < lines.length ? (
        <button type="button" className="link-button" onClick={() => setFull(true)}>
          Show all ({lines.length} lines)
        </button>
      ) : null}
    </>
  );
}

function counts(changes: FileChange[]): string {
  const n = (kind: FileChange['kind']) => changes.filter((c) => c.kind === kind).length;
  const parts = [n('add') && `${n('add')} new`, n('update') && `${n('update')} edited`, n('delete') && `${n('delete')} deleted`].filter(Boolean);
  return `${changes.length} ${changes.length === 1 ? 'file' : 'files'}: ${parts.join(', ')}`;
}

export function FileChangesView({ input, renderPath }: { input: unknown; renderPath?: RenderPath | undefined }): ReactNode {
  const parsed = FileChangesInputSchema.safeParse(input);
  if (!parsed.success) return <ClippedPre text={JSON.stringify(input, null, 2) ?? ''} label="Input" />;
  const { changes, description } = parsed.data;
  return (
    <>
      {description ? <p className="tool-note">{description}</p> : null}
      <p className="tool-note">{changes.length === 0 ? 'No file changes were shown to tether' : counts(changes)}</p>
      {changes.map((change, i) => (
        <section key={i} className="file-change" aria-label={`${VERB[change.kind]} ${change.path}`}>
          <div className="tool-file">
            <span className={`file-change-kind file-change-${change.kind}`}>{VERB[change.kind]}</span> {renderPath ? renderPath(change.path) : change.path}
            {change.movePath ? <> → {renderPath ? renderPath(change.movePath) : change.movePath}</> : null}
          </div>
          {change.diff ? <UnifiedDiff diff={change.diff} label={`Changes to ${change.path}`} /> : <p className="tool-note">{change.kind === 'delete' ? 'The whole file is deleted' : 'No lines change'}</p>}
        </section>
      ))}
    </>
  );
}
