// activity-panel.tsx: the session's approval history (the hub's audit trail): which request, what
// was decided, who decided (token label or the desk), on which device, and how long the agent waited.
//   open ─GET /api/sessions/:id (audit)─► rows; approval:resolved facts heard meanwhile are merged in
// The hub's rows carry no tool name; requests this tab saw waiting get theirs from the live cache.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DIALOG_OUTCOME_REASON, GIT_HISTORY_TOOL } from '@tether/shared/wire';
import { hubApi } from '../../lib/hub.ts';
import { answeredAtDesk, answeredFromNotification, formatDuration, formatRelativeTime } from '../../lib/format.ts';
import { queryKeys, type AuditEntry } from '../../lib/queries.ts';
import { Spinner } from '../../lib/ui/badge.tsx';

function decisionOf(entry: AuditEntry): { label: string; tone: 'ok' | 'danger' | 'muted' } {
  if (entry.outcome === 'withdrawn') return { label: 'Withdrawn', tone: 'muted' };
  // Taken to the agent's own dialog; the choice made there is filled in once the agent recorded it.
  if (!entry.answer) return { label: "The agent's dialog", tone: 'muted' };
  // A git write from the Changes view: the runner's sentence says what (commit sha, branch, push).
  if (entry.toolName === GIT_HISTORY_TOOL) return { label: clip(entry.answer.reason ?? 'Git', 72), tone: 'ok' };
  if (entry.answer.choice) return { label: `Chose option ${entry.answer.choice}`, tone: 'ok' };
  const answers = Object.values(entry.answer.answers ?? {});
  if (entry.answer.decision === 'allow' && answers.length === 1) return { label: `Answered “${clip(answers[0]!)}”`, tone: 'ok' };
  if (entry.answer.decision === 'deny' && entry.toolName === 'ExitPlanMode') return { label: entry.answer.reason ? 'Sent feedback' : 'Kept planning', tone: 'muted' };
  const inDialog = entry.answer.reason === DIALOG_OUTCOME_REASON ? " in the agent's dialog" : '';
  if (entry.answer.decision === 'allow' && entry.answer.updatedInput) return { label: 'Allowed, edited', tone: 'ok' };
  if (entry.answer.decision === 'allow' && entry.answer.planMode) return { label: entry.answer.planMode === 'acceptEdits' ? 'Approved, accept edits' : 'Approved, ask before edits', tone: 'ok' };
  if (entry.answer.decision === 'allow') return { label: entry.answer.sessionRule ? 'Allowed for session' : `Allowed${inDialog}`, tone: 'ok' };
  return { label: `Denied${inDialog}`, tone: 'danger' };
}

function clip(text: string, max = 28): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function toolLabel(toolName: string | undefined): string {
  if (!toolName) return 'Request';
  if (toolName === 'TrustFolder') return 'Trust folder';
  if (toolName === 'AskUserQuestion') return 'Question';
  if (toolName === 'ExitPlanMode') return 'Plan';
  if (toolName === 'Dialog') return 'Dialog';
  return toolName;
}

function whoOf(entry: AuditEntry): string {
  if (entry.outcome === 'withdrawn') return entry.answeredBy ?? 'nobody answered';
  if (answeredAtDesk(entry)) return 'desk';
  return entry.answeredBy ?? 'unknown';
}

/** The hub's rows and the live ones, newest first, one per request, tool names filled in where known. */
function merge(fetched: AuditEntry[], live: AuditEntry[]): AuditEntry[] {
  const names = new Map(live.filter((r) => r.toolName).map((r) => [r.requestId, r.toolName]));
  const byId = new Map<string, AuditEntry>();
  for (const entry of [...fetched, ...live]) {
    const toolName = entry.toolName ?? names.get(entry.requestId);
    byId.set(entry.requestId, toolName ? { ...entry, toolName } : entry);
  }
  return [...byId.values()].sort((a, b) => b.resolvedAt - a.resolvedAt);
}

export function ActivityPanel({ id, sessionId }: { id: string; sessionId: string }) {
  const client = useQueryClient();
  const fetched = useQuery({
    queryKey: queryKeys.audit(sessionId),
    queryFn: async () => (await hubApi.getSession(sessionId)).audit as AuditEntry[],
    staleTime: 0,
  });
  // Re-read on every render: the panel re-renders when the fetch lands; live facts that arrive
  // while it is open are picked up by the subscription below.
  const live = useQuery({
    queryKey: queryKeys.resolutions(sessionId),
    queryFn: () => client.getQueryData<AuditEntry[]>(queryKeys.resolutions(sessionId)) ?? [],
    staleTime: Infinity,
    initialData: () => client.getQueryData<AuditEntry[]>(queryKeys.resolutions(sessionId)) ?? [],
  });
  const rows = merge(fetched.data ?? [], live.data ?? []);
  const now = Date.now();

  return (
    <div className="model-panel activity-panel" id={id} role="dialog" aria-label="Approval history">
      <p className="model-panel-title">Approval history</p>
      {fetched.isPending && rows.length === 0 ? (
        <Spinner size={18} label="Loading approval history" />
      ) : fetched.error && rows.length === 0 ? (
        <p className="approval-error" role="alert">
          Couldn't load the history: {fetched.error.message}
        </p>
      ) : rows.length === 0 ? (
        <p className="info-text">Nothing answered yet. Approvals, questions and plans appear here once decided.</p>
      ) : (
        <ul className="activity-list" aria-label="Answered requests">
          {rows.map((entry) => {
            const decision = decisionOf(entry);
            const who = whoOf(entry);
            const notification = answeredFromNotification(entry);
            const device = notification !== null ? `from a notification · ${notification}` : entry.device;
            return (
              <li key={entry.requestId} className="activity-row">
                <div className="activity-top">
                  <span className="activity-tool">{toolLabel(entry.toolName)}</span>
                  <span className={`activity-decision activity-${decision.tone}`}>{decision.label}</span>
                </div>
                <div className="activity-meta">
                  <span>
                    <span className="sr-only">by </span>
                    {who}
                  </span>
                  {device && device !== who ? <span>{device}</span> : null}
                  {/* A git write waited for nobody: it was done when asked. */}
                  {entry.toolName === GIT_HISTORY_TOOL ? null : <span>waited {formatDuration(entry.waitedMs)}</span>}
                  <time dateTime={new Date(entry.resolvedAt).toISOString()}>{formatRelativeTime(entry.resolvedAt, now)}</time>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
