// worktree-field.tsx: the new-session form's "In a new worktree" choice (issue 30). Offered only when
// the chosen folder is in a git repository: the machine's daemon is asked (worktree:probe) once the
// folder has stood still for a moment. Ticked, it takes a branch name (prefilled), checked here with
// the same rule the hub and the daemon apply, and shows a refusal of the spawn's worktree inline.
// The repository's other worktrees are offered too: picking one starts the session in that folder.
import { useEffect, useState } from 'react';
import { branchNameProblem, type WorktreeProbeAck } from '@tether/shared';
import { requestHub } from '../../lib/socket.ts';
import { VerbatimField } from '../../lib/ui/verbatim-field.tsx';
import type { WorktreeChoice, WorktreeFieldProps } from '../../lib/worktree-slot.ts';
import './worktrees.css';

/** How long the folder must stay unchanged before the machine is asked (typing a path). */
const PROBE_DELAY_MS = 350;

/** A fresh branch name: `tether/<month><day>-<hour><minute>`, unlikely to exist already. */
export function suggestedBranch(now = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `tether/${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}`;
}

/** Where the daemon puts it, beside the repository's main folder (docs/decisions/worktrees.md),
 *  shown so that nobody has to guess. */
function worktreePath(probe: WorktreeProbeAck, branch: string): string {
  const main = probe.worktrees.find((w) => w.main)?.path ?? probe.repo;
  return `${main}.worktrees/${branch}`;
}

/** The repository's worktrees other than the folder chosen: a session may start in one of them. */
function OtherWorktrees({ probe, disabled, onPick }: { probe: WorktreeProbeAck; disabled: boolean; onPick: (cwd: string) => void }) {
  const others = probe.worktrees.filter((w) => w.path !== probe.repo);
  if (others.length === 0) return null;
  return (
    <>
      <p className="form-hint">Or start in one of its worktrees:</p>
      <div className="recent-dirs" role="group" aria-label="Existing worktrees">
        {others.slice(0, 8).map((w) => (
          <button key={w.path} type="button" className="recent-dir" title={w.path} aria-label={`Start in the worktree ${w.path}`} disabled={disabled} onClick={() => onPick(w.path)}>
            {w.branch ?? w.path}
          </button>
        ))}
      </div>
    </>
  );
}

function useProbe(machineId: string | null, cwd: string): WorktreeProbeAck | null {
  const [probe, setProbe] = useState<{ key: string; ack: WorktreeProbeAck } | null>(null);
  const key = `${machineId ?? ''}\u0000${cwd}`;
  useEffect(() => {
    if (!machineId || (!cwd.startsWith('/') && !cwd.startsWith('~'))) return;
    let live = true;
    const timer = setTimeout(() => {
      requestHub('worktree:probe', { machineId, cwd }).then(
        (ack) => live && setProbe({ key, ack }),
        // An older daemon, an offline machine: no worktree offered (the spawn says the rest).
        () => live && setProbe(null),
      );
    }, PROBE_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [machineId, cwd, key]);
  return probe?.key === key ? probe.ack : null;
}

export function WorktreeField(props: WorktreeFieldProps) {
  const { value, disabled, onChange } = props;
  const probe = useProbe(props.machineId, props.cwd.trim());
  const repo = probe?.repo ?? null;
  // A folder that is no repository (any more) takes no worktree: the choice goes with the offer.
  useEffect(() => {
    if (!repo && value) onChange(null);
  }, [repo, value, onChange]);
  if (!repo || !probe) return null;
  const problem = value ? branchNameProblem(value.branch) : null;
  const error = problem ?? (value ? props.spawnError : null);
  return (
    <div className="form-group worktree-field">
      <label className="check-row">
        <input type="checkbox" checked={value !== null} disabled={disabled} onChange={(event) => onChange(event.target.checked ? { branch: suggestedBranch() } : null)} />
        <span>
          <span className="check-title">In a new worktree</span>
          <span className="form-hint">{`A new branch in its own folder, from ${probe?.branch ?? 'the current commit'}. Your checkout in ${repo} stays as it is.`}</span>
        </span>
      </label>
      {value ? null : <OtherWorktrees probe={probe} disabled={disabled} onPick={props.onPickFolder} />}
      {value ? (
        <div className="worktree-branch">
          <VerbatimField
            id="new-session-branch"
            label="Branch"
            value={value.branch}
            onChange={(event) => onChange({ branch: event.target.value })}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby="new-session-branch-note"
          />
          {error ? (
            <p id="new-session-branch-note" className="worktree-error" role="alert">
              {error}
            </p>
          ) : (
            <p id="new-session-branch-note" className="form-hint worktree-path">
              {worktreePath(probe, value.branch)}
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}
