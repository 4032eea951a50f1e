// tool-card.tsx: one tool call, folded to a single line (tool name + what it touched) that expands
// to its input rendered for people (a Bash command, an Edit as a diff, Write content, a question
// and its answer, other tools as JSON) and to its result, when the result has arrived. In a PTY
// session the card also opens the terminal at the moment of the call ("Show in terminal"). A file
// the call touched inside the session's directory opens in Files (its path is a link), and an edit
// shows its file's diff in Changes ("Show diff").
import type { ReactNode } from 'react';
import type { ToolResultBlock, ToolUseBlock } from '@tether/shared';
import { summarizeToolInput } from '../../lib/format.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { IconCheck, IconChevron, IconDiff, IconTerminal, IconX } from '../../lib/ui/icons.tsx';
import { ClippedPre } from '../../lib/ui/clipped-pre.tsx';
import { asRecord, asText, ToolInputView } from '../../lib/ui/tool-input.tsx';
import { AnsweredQuestions } from './answered-questions.tsx';
import { useExpanded } from './expanded.ts';
import { useShowInTerminal } from './show-in-terminal.ts';
import { useWorkspaceLinks, type WorkspaceLinks, type WorkspaceTarget } from './workspace-links.ts';
import './chat.css';

/** Tools whose call changes the file named in `file_path` (its diff is worth a look). */
const EDITING_TOOLS = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

/** A link that opens in the app (a plain click) or a new tab (modified click), like a router Link. */
function WorkspaceLink({ links, target, className, label, children }: { links: WorkspaceLinks; target: WorkspaceTarget; className: string; label?: string; children: ReactNode }) {
  return (
    <a
      className={className}
      href={links.href(target)}
      aria-label={label}
      title={label}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        links.open(target);
      }}
    >
      {children}
    </a>
  );
}

/** AskUserQuestion's answers come back in the result's structured `answers` map. */
function questionAnswers(result: ToolResultBlock | null): Array<[string, string]> {
  const answers = asRecord(asRecord(result?.structured).answers);
  return Object.entries(answers).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

export function ToolCard({
  itemKey,
  use,
  result,
  live,
}: {
  itemKey: string;
  use: ToolUseBlock;
  result: ToolResultBlock | null;
  live: boolean;
}) {
  const [open, toggle] = useExpanded(itemKey);
  const answers = use.name === 'AskUserQuestion' ? questionAnswers(result) : [];
  const summary =
    answers.length > 0
      ? answers.map(([q, a]) => `${q} → ${a}`).join(' · ')
      : summarizeToolInput(use.name, use.input);
  const state = result ? (result.isError ? 'error' : 'done') : live ? 'running' : 'unknown';
  const bodyId = `tool-${use.id}`;
  const showInTerminal = useShowInTerminal();
  // The result's moment has the call's end too; before it arrives, the start is what there is.
  const moment = result?.terminalOffset ?? use.terminalOffset;
  const links = useWorkspaceLinks();
  const filePath = asText(asRecord(use.input).file_path);
  const inSession = links && filePath ? links.inSession(filePath) : null;
  const renderPath = links ? (path: string) => {
    const rel = links.inSession(path);
    return rel ? <WorkspaceLink links={links} target={{ kind: 'file', path: rel }} className="tool-file-link" label={`Open ${rel}`}>{path}</WorkspaceLink> : path;
  } : undefined;

  return (
    <div className={`tool-card tool-${state}`} data-tool={use.name}>
      <div className="tool-head-row">
      <button
        type="button"
        className="tool-head"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={toggle}
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
      {links && inSession && EDITING_TOOLS.has(use.name) ? (
        <WorkspaceLink links={links} target={{ kind: 'diff', path: inSession }} className="icon-button tool-jump" label={`Show the diff of ${inSession}`}>
          <IconDiff size={17} />
        </WorkspaceLink>
      ) : null}
      {showInTerminal && moment ? (
        <button
          type="button"
          className="icon-button tool-jump"
          aria-label="Show in terminal"
          title="Show in terminal"
          // claude shows paths relative to the project: the file name is what both have.
          onClick={() => showInTerminal({ moment, tool: use.name, hint: summary.startsWith('/') ? (summary.split('/').pop() ?? '') : summary })}
        >
          <IconTerminal size={17} />
        </button>
      ) : null}
      </div>
      {open ? (
        <div className="tool-body" id={bodyId}>
          {answers.length > 0 ? (
            <AnsweredQuestions input={use.input} answers={new Map(answers)} />
          ) : (
            <ToolInputView name={use.name} input={use.input} {...(renderPath ? { renderPath } : {})} />
          )}
          {answers.length > 0 ? null : result ? (
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
