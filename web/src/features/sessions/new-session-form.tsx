// new-session-form.tsx: start a session on an online machine (the `/new` screen).
// Flow: pick a machine (online ones, live via machine:updated), a directory (or a recent one; in a new
// git worktree of it when it is a repository: features/worktrees), the
// permission mode, the model and the launch kind ─session:spawn─► hub ─► that machine's daemon ─►
// runner ─► claude. The hub acks once claude is ready (or with the reason it is not); meanwhile the
// form shows how far it got, and on success it opens the new session.
// Invariant: PTY (live terminal) is opt-in: the checkbox starts off, and headless is what is sent
// unless it is ticked.
import { useContext, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { branchNameProblem, SPAWN_ACK_TIMEOUT_MS, type AgentKind, type Machine, type PermissionMode, type Session } from '@tether/shared';
import { agentDisplayName, DEFAULT_AGENT } from '@tether/shared/wire';

import { requestHub, SocketRequestError } from '../../lib/socket.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { useNow } from '../../lib/ui/use-now.ts';
import { recentDirectories } from './recent-directories.ts';
import { WorktreeSlotContext, type WorktreeChoice } from '../../lib/worktree-slot.ts';
import { AgentField, DirectoryField, MachineField, ModeField, ModelField } from './new-session-fields.tsx';
import { PERMISSION_MODES } from './permission-modes.ts';
import './new-session.css';

type Phase = { kind: 'editing' } | { kind: 'starting'; since: number; sessionId: string | null } | { kind: 'failed'; message: string; reason: string | undefined };

export type NewSessionFormProps = {
  machines: readonly Machine[];
  sessions: readonly Session[];
  onStarted: (session: Session) => void;
  onCancel: () => void;
};

export function NewSessionForm({ machines, sessions, onStarted, onCancel }: NewSessionFormProps) {
  const online = machines.filter((m) => m.online);
  const [machineId, setMachineId] = useState<string | null>(online[0]?.id ?? null);
  const [cwd, setCwd] = useState('');
  const [permissionMode, setPermissionMode] = useState<PermissionMode>('default');
  const [model, setModel] = useState('');
  const [pty, setPty] = useState(false);
  const [agent, setAgent] = useState<AgentKind>(DEFAULT_AGENT);
  const [worktree, setWorktree] = useState<WorktreeChoice>(null);
  const WorktreeField = useContext(WorktreeSlotContext)?.Field;
  const [phase, setPhase] = useState<Phase>({ kind: 'editing' });
  const now = useNow(1_000);
  const knownIds = useRef<Set<string> | null>(null);

  // A machine that comes online while the form is open becomes the choice when there was none.
  useEffect(() => {
    if (machineId === null && online[0]) setMachineId(online[0].id);
  }, [machineId, online]);

  const machine = machines.find((m) => m.id === machineId) ?? null;
  /** The agents this machine's daemon found installed; another machine may lack the one chosen. */
  const agents: AgentKind[] = machine?.agents ?? [DEFAULT_AGENT];
  const chosenAgent: AgentKind = agents.includes(agent) ? agent : (agents[0] ?? DEFAULT_AGENT);
  /** What the chosen agent offers here (a daemon older than capabilities states none: no mode or
   *  model shortcuts, the agent's own defaults). */
  const capabilities = machine?.capabilities[chosenAgent] ?? null;
  // Only where the chosen launch kind takes them (Codex: its collaboration modes, headless only).
  const modes = capabilities?.modes.switchableIn.includes(pty ? 'pty' : 'headless') ? PERMISSION_MODES.filter((mode) => mode.startable && capabilities.modes.values.includes(mode.value)) : [];
  const modelShortcuts = capabilities?.models.offered ?? [];
  const name = agentDisplayName(chosenAgent, capabilities);
  const recent = useMemo(() => recentDirectories({ sessions, machineId }), [sessions, machineId]);

  // Progress: the hub lists the new session (status "starting") as soon as the daemon started it.
  useEffect(() => {
    if (phase.kind !== 'starting' || phase.sessionId || !knownIds.current) return;
    const fresh = sessions.find((s) => !knownIds.current!.has(s.id) && s.machineId === machineId);
    if (fresh) setPhase({ ...phase, sessionId: fresh.id });
  }, [sessions, phase, machineId]);

  const start = async (options: { createDir: boolean }) => {
    if (!machine || !machine.online || !cwd.trim()) return;
    knownIds.current = new Set(sessions.map((s) => s.id));
    setPhase({ kind: 'starting', since: Date.now(), sessionId: null });
    try {
      const ack = await requestHub(
        'session:spawn',
        {
          machineId: machine.id,
          cwd: cwd.trim(),
          launchKind: pty ? 'pty' : 'headless',
          agent: chosenAgent,
          ...(modes.some((mode) => mode.value === permissionMode) ? { permissionMode } : {}),
          createDir: options.createDir,
          ...(model.trim() ? { model: model.trim() } : {}),
          ...(worktree ? { worktree } : {}),
        },
        { timeoutMs: SPAWN_ACK_TIMEOUT_MS },
      );
      onStarted(ack.session);
    } catch (error) {
      setPhase({
        kind: 'failed',
        message: error instanceof Error ? error.message : String(error),
        reason: error instanceof SocketRequestError ? error.reason : undefined,
      });
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void start({ createDir: false });
  };

  const starting = phase.kind === 'starting';
  const canSubmit = !!machine?.online && cwd.trim() !== '' && !starting && !(worktree && branchNameProblem(worktree.branch));
  /** A refused worktree is said at the branch field, not in the banner. */
  const worktreeError = phase.kind === 'failed' && phase.reason === 'worktree_failed' ? phase.message : null;
  const home = machine?.home;

  return (
    <form className="new-session" onSubmit={onSubmit} aria-label="New session" aria-busy={starting}>
      <MachineField machines={machines} machineId={machineId} disabled={starting} onChange={setMachineId} />

      <DirectoryField cwd={cwd} home={home} recent={recent} disabled={starting} onChange={setCwd} />

      {WorktreeField ? <WorktreeField machineId={machineId} cwd={cwd} value={worktree} disabled={starting} spawnError={worktreeError} onChange={setWorktree} onPickFolder={setCwd} /> : null}

      {agents.length > 1 ? <AgentField agents={agents} chosen={chosenAgent} machine={machine} disabled={starting} onChange={setAgent} /> : null}

      <div className="form-row">
        {modes.length > 0 ? <ModeField modes={modes} value={permissionMode} disabled={starting} onChange={setPermissionMode} /> : null}
        <ModelField model={model} shortcuts={modelShortcuts} disabled={starting} onChange={setModel} />
      </div>

      <label className="check-row">
        <input type="checkbox" checked={pty} disabled={starting} onChange={(event) => setPty(event.target.checked)} />
        <span>
          <span className="check-title">PTY (live terminal)</span>
          <span className="form-hint">
            {`Runs the interactive ${name} TUI you can watch and type into, and attach at the desk later. Off: chat only (headless), lighter.`}
          </span>
        </span>
      </label>

      {phase.kind === 'failed' && !worktreeError ? (
        <div className="banner banner-danger new-session-error" role="alert">
          <strong>Couldn't start the session.</strong> {phase.message}
          {phase.reason === 'dir_missing' ? (
            <div className="new-session-error-actions">
              <button type="button" className="button" onClick={() => void start({ createDir: true })}>
                Create the directory and start
              </button>
            </div>
          ) : null}
        </div>
      ) : null}

      {phase.kind === 'starting' ? (
        <div className="spawn-progress" role="status" aria-live="polite">
          <Spinner size={18} />
          <span>
            {phase.sessionId ? `${name} is starting` : `Asking ${machine?.name ?? 'the machine'} to start ${name}`}…{' '}
            {Math.max(0, Math.round((now - phase.since) / 1000))} s
          </span>
        </div>
      ) : null}

      <div className="form-actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={!canSubmit}>
          {starting ? <Spinner size={16} /> : null}
          {starting ? 'Starting…' : 'Start session'}
        </button>
      </div>
    </form>
  );
}
