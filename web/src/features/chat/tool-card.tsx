// tool-card.tsx: one tool call, folded to a single line (tool name + what it touched) that expands
// to its input rendered for people (a Bash command, an Edit as a diff, Write content, a question
// and its answer, other tools as JSON) and to its result, when the result has arrived.
import { useState, type ReactNode } from 'react';
import type { ToolResultBlock, ToolUseBlock } from '@tether/shared';
import { summarizeToolInput } from '../../lib/format.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { IconCheck, IconChevron, IconX } from '../../lib/ui/icons.tsx';

/** Tool output past this many characters is clipped until "Show all" is pressed: a 2 MB build
 *  log must not freeze a phone. */
const RESULT_PREVIEW_CHARS = 4_000;

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function Diff({ before, after }: { before: string; after: string }) {
  const removed = before ? before.split('\n') : [];
  const added = after ? after.split('\n') : [];
  return (
    <pre className="diff" aria-label="Changes">
      {removed.map((line, i) => (
        <span key={`r${i}`} className="diff-line diff-del">
          <span aria-hidden="true">- </span>
          {line}
          {'\n'}
        </span>
      ))}
      {added.map((line, i) => (
        <span key={`a${i}`} className="diff-line diff-add">
          <span aria-hidden="true">+ </span>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

function ToolInput({ use }: { use: ToolUseBlock }): ReactNode {
  const input = asRecord(use.input);
  switch (use.name) {
    case 'Bash':
      return (
        <>
          {str(input.description) ? <p className="tool-note">{str(input.description)}</p> : null}
          <pre className="tool-pre tool-command">
            <span aria-hidden="true" className="tool-prompt">
              ${' '}
            </span>
            {str(input.command)}
          </pre>
        </>
      );
    case 'Edit':
      return <Diff before={str(input.old_string)} after={str(input.new_string)} />;
    case 'MultiEdit': {
      const edits = Array.isArray(input.edits) ? input.edits.map(asRecord) : [];
      return (
        <>
          {edits.map((edit, i) => (
            <Diff key={i} before={str(edit.old_string)} after={str(edit.new_string)} />
          ))}
        </>
      );
    }
    case 'Write':
      return <ClippedPre text={str(input.content)} />;
    case 'AskUserQuestion': {
      const questions = Array.isArray(input.questions) ? input.questions.map(asRecord) : [];
      return (
        <ul className="tool-questions">
          {questions.map((q, i) => (
            <li key={i}>{str(q.question)}</li>
          ))}
        </ul>
      );
    }
    default:
      return <ClippedPre text={JSON.stringify(use.input, null, 2) ?? ''} />;
  }
}

function ClippedPre({ text, error }: { text: string; error?: boolean }) {
  const [full, setFull] = useState(false);
  const clipped = !full && text.length > RESULT_PREVIEW_CHARS;
  return (
    <>
      <pre className={error ? 'tool-pre tool-pre-error' : 'tool-pre'}>
        {clipped ? `${text.slice(0, RESULT_PREVIEW_CHARS)}…` : text}
      </pre>
      {clipped ? (
        <button type="button" className="link-button" onClick={() => setFull(true)}>
          Show all ({Math.round(text.length / 1000)}k characters)
        </button>
      ) : null}
    </>
  );
}

/** AskUserQuestion's answers come back in the result's structured `answers` map. */
function questionAnswers(result: ToolResultBlock | null): Array<[string, string]> {
  const answers = asRecord(asRecord(result?.structured).answers);
  return Object.entries(answers).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

export function ToolCard({ use, result, live }: { use: ToolUseBlock; result: ToolResultBlock | null; live: boolean }) {
  const [open, setOpen] = useState(false);
  const answers = use.name === 'AskUserQuestion' ? questionAnswers(result) : [];
  const summary =
    answers.length > 0
      ? answers.map(([q, a]) => `${q} → ${a}`).join(' · ')
      : summarizeToolInput(use.name, use.input);
  const state = result ? (result.isError ? 'error' : 'done') : live ? 'running' : 'unknown';
  const bodyId = `tool-${use.id}`;

  return (
    <div className={`tool-card tool-${state}`} data-tool={use.name}>
      <button
        type="button"
        className="tool-head"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setOpen((v) => !v)}
      >
        <span className="tool-state" aria-hidden="true">
          {state === 'running' ? (
            <Spinner size={14} />
          ) : state === 'done' ? (
            <IconCheck size={15} />
          ) : state === 'error' ? (
            <IconX size={15} />
          ) : (
            <span className="tool-state-dot" />
          )}
        </span>
        <span className="tool-name">{use.name === 'AskUserQuestion' ? 'Question' : use.name}</span>
        <span className="tool-summary">{summary}</span>
        <IconChevron size={16} className="tool-chevron" />
      </button>
      {open ? (
        <div className="tool-body" id={bodyId}>
          <ToolInput use={use} />
          {answers.length > 0 ? (
            <dl className="tool-answers">
              {answers.map(([q, a]) => (
                <div key={q}>
                  <dt>{q}</dt>
                  <dd>{a}</dd>
                </div>
              ))}
            </dl>
          ) : result ? (
            <>
              <div className="tool-section-label">{result.isError ? 'Error' : 'Result'}</div>
              <ClippedPre text={result.content || '(no output)'} error={result.isError} />
            </>
          ) : (
            <p className="tool-note">{live ? 'Running…' : 'No result recorded.'}</p>
          )}
        </div>
      ) : null}
    </div>
  );
}
