// approval-sheet.tsx: the decision claude is blocked on, docked at the bottom of the session in
// place of the composer (claude cannot take a message until it is answered anyway).
// One request at a time, oldest first, with "1 of 3" and how long it has waited.
//
//   pending (query cache, kept by approval:requested/resolved) ─► sheet ─approval:answer─► hub
//   hub ─approval:resolved─► every tab drops the card; a tab that did not answer says who did
//   ("Answered at the desk" when the desk terminal took it, else "Answered on another device")
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { askedByLabel, FILE_CHANGES_TOOL_NAME, type AgentCapabilities, type PendingRequest } from '@tether/shared';
import { answeredAtDesk, answeredFromNotification, formatDuration } from '../../lib/format.ts';
import { findResolution, removePendingRequest } from '../../lib/queries.ts';
import { requestHub, SocketRequestError } from '../../lib/socket.ts';
import { useNow } from '../../lib/ui/use-now.ts';
import { PermissionForm } from './permission-form.tsx';
import { QuestionForm } from './question-form.tsx';
import { PlanForm } from './plan-form.tsx';
import { ElicitationForm } from './elicitation-form.tsx';
import { TRUST_FOLDER_TOOL, TrustFolderForm } from './trust-folder-form.tsx';
import { DialogCard, dialogInput } from './dialog-card.tsx';
import { useAgentName } from '../../lib/agent-name.ts';
import { buzz } from '../../lib/haptics.ts';
import type { SubmitAnswer } from './submit-answer.ts';
import './approvals.css';

/** How long "Answered on another device" (or "at the desk") stays before the sheet closes. */
const ELSEWHERE_NOTICE_MS = 4_000;
/** The waited-for clock ticks every few seconds: "12s" → "13s" matters less than battery. */
const WAITED_TICK_MS = 5_000;

function titleFor(request: PendingRequest, agent: string): string {
  switch (request.kind) {
    case 'question':
      return `${agent} has a question`;
    case 'plan':
      return 'Approve the plan?';
    case 'dialog':
    {
      const input = dialogInput(request);
      return input?.headline ?? input?.title ?? `${agent} shows a choice`;
    }
    case 'elicitation':
      return `${request.toolName} asks for input`;
    case 'permission':
      if (request.toolName === TRUST_FOLDER_TOOL) return 'Trust this folder?';
      if (request.toolName === 'Bash') return 'Run this command?';
      if (['Edit', 'MultiEdit', 'NotebookEdit'].includes(request.toolName)) return 'Allow this edit?';
      if (request.toolName === 'Write') return 'Write this file?';
      if (request.toolName === FILE_CHANGES_TOOL_NAME) return 'Allow these file changes?';
      return `Allow ${request.toolName}?`;
    default: {
      const never: never = request.kind;
      return String(never);
    }
  }
}

/** What the toast says when a request went away without this tab answering it. */
function noticeFor(resolution: { outcome: string; answeredBy: string | null; device: string | null } | undefined, agent: string): string {
  if (resolution && answeredAtDesk(resolution)) return 'Answered at the desk.';
  if (resolution?.outcome === 'withdrawn') return `${agent} stopped waiting for this.`;
  if (resolution && answeredFromNotification(resolution) !== null) return 'Answered from a notification.';
  return 'Answered on another device.';
}

/** `relays`: what the session's agent takes with an answer (its capabilities). One that takes neither
 *  an edited input nor a session rule (Codex: both reserved in its hook, they fail closed), or a
 *  session whose runner stated nothing, gets only Allow, Deny and a reason. */
export function ApprovalSheet({ sessionId, pending, relays = null }: { sessionId: string; pending: PendingRequest[]; relays?: AgentCapabilities['relays'] | null }) {
  const client = useQueryClient();
  const agent = useAgentName();
  const now = useNow(WAITED_TICK_MS);
  const ordered = [...pending].sort((a, b) => a.createdAt - b.createdAt);
  const request = ordered[0];
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [elsewhere, setElsewhere] = useState<string | null>(null);
  const answeredHere = useRef(new Set<string>());
  const shown = useRef<string | null>(null);

  // A request this tab has not seen yet came in while it is open.
  const heard = useRef(new Set<string>());
  useEffect(() => {
    const fresh = pending.filter((r) => !heard.current.has(r.id));
    for (const r of fresh) heard.current.add(r.id);
    if (fresh.length > 0) buzz('request');
  }, [pending]);

  // The request on screen went away without this tab answering it: someone else did.
  useEffect(() => {
    const previous = shown.current;
    shown.current = request?.id ?? null;
    setBusy(null);
    setError(null);
    if (previous && previous !== request?.id && !answeredHere.current.has(previous)) {
      setElsewhere(noticeFor(findResolution(client, sessionId, previous), agent));
      const timer = setTimeout(() => setElsewhere(null), ELSEWHERE_NOTICE_MS);
      return () => clearTimeout(timer);
    }
    return undefined;
  }, [request?.id, client, sessionId]);

  if (!request) {
    return elsewhere ? (
      <div className="approval-sheet approval-sheet-note" role="status">
        {elsewhere}
      </div>
    ) : null;
  }

  const current = request;
  const submit: SubmitAnswer = async (answer, action) => {
    setBusy(action);
    setError(null);
    answeredHere.current.add(current.id);
    try {
      await requestHub('approval:answer', { requestId: current.id, answer });
      buzz('accepted');
      removePendingRequest(client, { sessionId, requestId: current.id });
    } catch (err) {
      if (err instanceof SocketRequestError && (err.code === 'conflict' || err.code === 'not_found')) {
        answeredHere.current.delete(current.id);
        removePendingRequest(client, { sessionId, requestId: current.id });
        return;
      }
      answeredHere.current.delete(current.id);
      setBusy(null);
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  const titleId = `approval-title-${current.id}`;

  return (
    <section className="approval-sheet" role="dialog" aria-modal="false" aria-labelledby={titleId} data-kind={current.kind}>
      <header className="approval-head">
        <div className="approval-head-text">
          <h2 className="approval-title" id={titleId}>
            {titleFor(current, agent)}
          </h2>
          {current.kind === 'permission' && current.toolName !== TRUST_FOLDER_TOOL ? <p className="approval-meta">{current.toolName}</p> : null}
          {current.kind === 'elicitation' ? <p className="approval-meta">MCP server</p> : null}
          {current.askedBy ? <p className="approval-meta approval-asker">Asked by sub-agent {askedByLabel(current.askedBy)}</p> : null}
        </div>
        <div className="approval-side">
          <span className="approval-waited" title={`How long ${agent} has been waiting`}>
            {formatDuration(now - current.createdAt)}
          </span>
          {ordered.length > 1 ? <span className="approval-count">1 of {ordered.length}</span> : null}
        </div>
      </header>
      {error ? (
        <p className="approval-error" role="alert">
          Couldn't send the answer: {error}
        </p>
      ) : null}
      {current.kind === 'question' ? (
        <QuestionForm key={current.id} request={current} busy={busy} submit={submit} />
      ) : current.kind === 'plan' ? (
        <PlanForm key={current.id} request={current} busy={busy} submit={submit} />
      ) : current.kind === 'dialog' ? (
        <DialogCard key={current.id} request={current} busy={busy} submit={submit} />
      ) : current.kind === 'elicitation' ? (
        <ElicitationForm key={current.id} request={current} busy={busy} submit={submit} />
      ) : current.toolName === TRUST_FOLDER_TOOL ? (
        <TrustFolderForm key={current.id} request={current} busy={busy} submit={submit} />
      ) : (
        <PermissionForm key={current.id} request={current} busy={busy} submit={submit} relays={relays ?? { editedInput: false, sessionRules: false }} />
      )}
    </section>
  );
}
