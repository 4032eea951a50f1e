// target-fields.tsx: where a new schedule's prompt goes: a running session, or a new session in a
// folder on a machine (headless or PTY, optionally in a new worktree). Fixed once the schedule exists.
import { agentDisplayName, isFinalStatus, type AgentKind, type Machine, type ScheduleTarget, type Session } from '@tether/shared';

export type TargetDraft = { kind: 'session' | 'new'; sessionId: string; machineId: string; cwd: string; agent: AgentKind; pty: boolean; branch: string };

export function targetDraftOf(o: { sessions: readonly Session[]; machines: readonly Machine[]; sessionId?: string }): TargetDraft {
  const live = o.sessions.filter((s) => !isFinalStatus(s.status));
  const sessionId = o.sessionId ?? live[0]?.id ?? '';
  const machine = o.machines[0];
  return { kind: sessionId ? 'session' : 'new', sessionId, machineId: machine?.id ?? '', cwd: machine?.home ?? '', agent: machine?.agents[0] ?? 'claude', pty: false, branch: '' };
}

export function targetOfDraft(d: TargetDraft): ScheduleTarget | { error: string } {
  if (d.kind === 'session') return d.sessionId ? { kind: 'session', sessionId: d.sessionId } : { error: 'pick a session' };
  if (!d.machineId) return { error: 'pick a machine' };
  if (!d.cwd.trim()) return { error: 'name a folder' };
  return { kind: 'new', machineId: d.machineId, cwd: d.cwd.trim(), agent: d.agent, launchKind: d.pty ? 'pty' : 'headless', ...(d.branch.trim() ? { worktree: { branch: d.branch.trim() } } : {}) };
}

export function TargetFields(o: { draft: TargetDraft; sessions: readonly Session[]; machines: readonly Machine[]; onChange: (draft: TargetDraft) => void }) {
  const { draft } = o;
  const live = o.sessions.filter((s) => !isFinalStatus(s.status));
  const machine = o.machines.find((m) => m.id === draft.machineId);
  return (
    <fieldset className="schedule-group">
      <legend className="field-label">Send to</legend>
      <div className="schedule-choice" role="radiogroup" aria-label="Send to">
        <label className="schedule-option">
          <input type="radio" name="target-kind" checked={draft.kind === 'session'} onChange={() => o.onChange({ ...draft, kind: 'session' })} />A running session
        </label>
        <label className="schedule-option">
          <input type="radio" name="target-kind" checked={draft.kind === 'new'} onChange={() => o.onChange({ ...draft, kind: 'new' })} />A new session
        </label>
      </div>
      {draft.kind === 'session' ? (
        <label className="schedule-field">
          <span className="field-label">Session</span>
          <select className="field-input" value={draft.sessionId} onChange={(e) => o.onChange({ ...draft, sessionId: e.target.value })}>
            {live.length === 0 ? <option value="">No running session</option> : null}
            {live.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title.trim() || s.cwd}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <>
          <div className="schedule-row">
            <label className="schedule-field">
              <span className="field-label">Machine</span>
              <select className="field-input" value={draft.machineId} onChange={(e) => o.onChange({ ...draft, machineId: e.target.value })}>
                {o.machines.length === 0 ? <option value="">No machine yet</option> : null}
                {o.machines.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                    {m.online ? '' : ' (offline)'}
                  </option>
                ))}
              </select>
            </label>
            <label className="schedule-field">
              <span className="field-label">Agent</span>
              <select className="field-input" value={draft.agent} onChange={(e) => o.onChange({ ...draft, agent: e.target.value as AgentKind })}>
                {(machine?.agents ?? [draft.agent]).map((a) => (
                  <option key={a} value={a}>
                    {agentDisplayName(a, machine?.capabilities[a])}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <label className="schedule-field">
            <span className="field-label">Folder</span>
            <input className="field-input field-mono" value={draft.cwd} spellCheck={false} autoCapitalize="off" onChange={(e) => o.onChange({ ...draft, cwd: e.target.value })} />
          </label>
          <div className="schedule-row">
            <label className="schedule-field">
              <span className="field-label">New worktree branch (optional)</span>
              <input className="field-input field-mono" value={draft.branch} spellCheck={false} autoCapitalize="off" onChange={(e) => o.onChange({ ...draft, branch: e.target.value })} />
            </label>
            <label className="schedule-option schedule-check">
              <input type="checkbox" checked={draft.pty} onChange={(e) => o.onChange({ ...draft, pty: e.target.checked })} />
              PTY (live terminal)
            </label>
          </div>
        </>
      )}
    </fieldset>
  );
}
