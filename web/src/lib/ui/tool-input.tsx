// tool-input.tsx: a tool call's input drawn for people, shared by the chat's tool cards and the
// approval sheet: a Bash command with its description, an Edit as a diff, any agent's FileChanges as
// files and diffs (file-changes.tsx), Write content (clipped: clipped-pre.tsx),
// AskUserQuestion's questions, a Read's file, anything else as formatted JSON. `renderPath` lets the
// chat make a file path a link into the session's files (the approval sheet shows it plain).
import { lazy, Suspense, type ReactNode } from 'react';
import { FILE_CHANGES_TOOL_NAME } from '@tether/shared/wire';
import { ClippedPre, type RenderPath } from './clipped-pre.tsx';
import './tool-input.css';

// The view checks its input with the shared schema, and so loads zod: only when a FileChanges call
// is drawn (a Codex session), not with every chat (web_render_10k_ms).
const FileChangesView = lazy(() => import('./file-changes.tsx').then((m) => ({ default: m.FileChangesView })));

export function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function asText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function Diff({ before, after, label = 'Changes' }: { before: string; after: string; label?: string }) {
  return (
    <pre className="diff" aria-label={label}>
      <DiffLines text={before} side="del" />
      <DiffLines text={after} side="add" />
    </pre>
  );
}

/** One side of a diff: every line marked removed (−) or added (+). */
function DiffLines({ text, side }: { text: string; side: 'del' | 'add' }) {
  return (text ? text.split('\n') : []).map((line, i) => (
    <span key={`${side}${i}`} className={`diff-line diff-${side}`}>
      <span aria-hidden="true" className="diff-sign">
        {side === 'del' ? '−' : '+'}
      </span>
      {line}
      {'\n'}
    </span>
  ));
}

export function FilePath({ path, render }: { path: string; render?: RenderPath | undefined }) {
  return <div className="tool-file">{render ? render(path) : path}</div>;
}

export function ToolInputView({ name, input, renderPath }: { name: string; input: unknown; renderPath?: RenderPath }): ReactNode {
  const record = asRecord(input);
  switch (name) {
    case 'Bash':
      return (
        <>
          {asText(record.description) ? <p className="tool-note">{asText(record.description)}</p> : null}
          <pre className="tool-pre tool-command" aria-label="Command">
            <span aria-hidden="true" className="tool-prompt">
              ${' '}
            </span>
            {asText(record.command)}
          </pre>
        </>
      );
    case 'Edit':
      return (
        <>
          <FilePath path={asText(record.file_path)} render={renderPath} />
          <Diff before={asText(record.old_string)} after={asText(record.new_string)} />
        </>
      );
    case 'MultiEdit': {
      const edits = Array.isArray(record.edits) ? record.edits.map(asRecord) : [];
      return (
        <>
          <FilePath path={asText(record.file_path)} render={renderPath} />
          {edits.map((edit, i) => (
            <Diff key={i} before={asText(edit.old_string)} after={asText(edit.new_string)} />
          ))}
        </>
      );
    }
    case 'Write':
      return (
        <>
          <FilePath path={asText(record.file_path)} render={renderPath} />
          <ClippedPre text={asText(record.content)} label="File content" />
        </>
      );
    case FILE_CHANGES_TOOL_NAME:
      return (
        <Suspense fallback={<p className="tool-note">Loading the changes…</p>}>
          <FileChangesView input={input} renderPath={renderPath} />
        </Suspense>
      );
    case 'Read':
      return asText(record.file_path) ? (
        <>
          <FilePath path={asText(record.file_path)} render={renderPath} />
          {typeof record.offset === 'number' || typeof record.limit === 'number' ? (
            <p className="tool-note">
              {typeof record.offset === 'number' ? `From line ${record.offset}` : 'From the start'}
              {typeof record.limit === 'number' ? `, ${record.limit} lines` : ''}
            </p>
          ) : null}
        </>
      ) : (
        <ClippedPre text={JSON.stringify(input, null, 2) ?? ''} label="Input" />
      );
    case 'AskUserQuestion': {
      const questions = Array.isArray(record.questions) ? record.questions.map(asRecord) : [];
      return (
        <ul className="tool-questions">
          {questions.map((q, i) => (
            <li key={i}>{asText(q.question)}</li>
          ))}
        </ul>
      );
    }
    default:
      return <ClippedPre text={JSON.stringify(input, null, 2) ?? ''} label="Input" />;
  }
}
