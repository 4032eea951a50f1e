// git-panel.tsx: commit and push from the Changes view. A fold above the diffs: every changed file
// with a stage toggle, a message box, Commit, Push (to the branch's upstream) and, when the machine's
// gh is logged in, Open pull request. The runner does the git (git-actions); this only asks and shows.
// Busy, done and failed states are announced (role=status / alert); a write refused because the
// agent is mid-turn offers to go ahead anyway.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { GitState, GitWrite, Session } from '@tether/shared';
import { hubApi } from '../../lib/hub.ts';
import { queryKeys } from '../../lib/queries.ts';
import { useTurnEnd } from './use-turn-end.ts';
import { useGitAction, type GitOutcome } from './use-git-action.ts';

type RepoState = Extract<GitState, { git: true }>;

const BUSY_LABEL = { stage: 'Staging…', unstage: 'Unstaging…', commit: 'Committing…', push: 'Pushing…', 'pull-request': 'Opening…' } as const;

export function GitPanel({ session }: { session: Session }) {
  const state = useQuery({ queryKey: queryKeys.gitState(session.id), queryFn: () => hubApi.gitState(session.id), staleTime: 0 });
  useTurnEnd(session.status, () => void state.refetch());
  const [message, setMessage] = useState('');
  // A commit made: its message is spent.
  const action = useGitAction(session.id, (done) => done.action === 'commit' && setMessage(''));
  const repo = state.data?.git ? state.data : null;
  if (!repo) return null;
  const staged = repo.files.filter((f) => f.staged).length;
  const canCommit = staged > 0 && message.trim() !== '' && action.busy === null;
  return (
    <details className="git-panel">
      <summary className="git-panel-summary">
        Commit and push <span className="git-panel-facts">· {staged} of {repo.total} staged{repo.ahead > 0 ? ` · ${repo.ahead} to push` : ''}</span>
      </summary>
      <ul className="git-files" aria-label="Stage files for the commit">
        {repo.files.map((file) => (
          <li key={file.path}>
            <label className="git-file">
              <input
                type="checkbox"
                checked={toggledTo(action.pending, file.path) ?? file.staged}
                disabled={action.busy !== null}
                onChange={() => action.run({ action: file.staged ? 'unstage' : 'stage', paths: [file.path] })}
              />
              <span className="git-file-path">{file.path}</span>
              {file.staged && file.unstaged ? <span className="git-file-note">also changed since staged</span> : null}
            </label>
          </li>
        ))}
      </ul>
      <form
        className="git-commit"
        onSubmit={(event) => {
          event.preventDefault();
          if (canCommit) action.run({ action: 'commit', message });
        }}
      >
        <label className="git-message-label" htmlFor={`git-message-${session.id}`}>
          Commit message
        </label>
        <textarea id={`git-message-${session.id}`} className="git-message" rows={3} maxLength={10_000} value={message} onChange={(e) => setMessage(e.target.value)} />
        <div className="git-buttons">
          <button type="submit" className="button button-primary" disabled={!canCommit}>
            {action.busy === 'commit' ? BUSY_LABEL.commit : staged === 0 ? 'Commit (stage a file first)' : `Commit ${staged === 1 ? '1 file' : `${staged} files`}`}
          </button>
          <PushButtons repo={repo} busy={action.busy} onPush={() => action.run({ action: 'push' })} onPullRequest={() => action.run({ action: 'pull-request' })} />
        </div>
      </form>
      <Outcome outcome={action.outcome} busy={action.busy} onConfirm={(request) => action.run(request, true)} />
    </details>
  );
}

/** What a stage or unstage under way makes of `path` (staged or not), or null when it names it not.
 *  The target, not the opposite of what the index said: a refresh that lands while the write is under
 *  way may already show it done, and its opposite was the old state again. */
function toggledTo(pending: GitWrite | null, path: string): boolean | null {
  if (!pending || (pending.action !== 'stage' && pending.action !== 'unstage') || !pending.paths.includes(path)) return null;
  return pending.action === 'stage';
}

function PushButtons(props: { repo: RepoState; busy: string | null; onPush: () => void; onPullRequest: () => void }) {
  const { repo, busy } = props;
  const pushLabel = busy === 'push' ? BUSY_LABEL.push : !repo.upstream ? 'Push (no upstream)' : repo.ahead > 0 ? `Push to ${repo.upstream}` : 'Push (up to date)';
  return (
    <>
      <button type="button" className="button" disabled={busy !== null || !repo.upstream || repo.ahead === 0} onClick={props.onPush}>
        {pushLabel}
      </button>
      {repo.pullRequests ? (
        <button type="button" className="button" disabled={busy !== null} onClick={props.onPullRequest}>
          {busy === 'pull-request' ? BUSY_LABEL['pull-request'] : 'Open pull request'}
        </button>
      ) : null}
    </>
  );
}

function Outcome({ outcome, busy, onConfirm }: { outcome: GitOutcome; busy: string | null; onConfirm: (request: Extract<GitOutcome, { kind: 'mid-turn' }>['request']) => void }) {
  if (busy) {
    return (
      <p className="git-outcome" role="status">
        {BUSY_LABEL[busy as keyof typeof BUSY_LABEL]}
      </p>
    );
  }
  if (!outcome) return <p className="git-outcome" role="status" />;
  if (outcome.kind === 'done') {
    const { done } = outcome;
    return (
      <p className="git-outcome git-outcome-done" role="status">
        {done.url ? (
          <a href={done.url} target="_blank" rel="noreferrer">
            {done.summary}
          </a>
        ) : (
          done.summary
        )}
      </p>
    );
  }
  if (outcome.kind === 'mid-turn') {
    return (
      <div className="git-outcome git-outcome-failed" role="alert">
        <p>The agent is mid-turn: a commit or push now may catch its edits half done.</p>
        <button type="button" className="button" onClick={() => onConfirm(outcome.request)}>
          Do it anyway
        </button>
      </div>
    );
  }
  return (
    <p className="git-outcome git-outcome-failed" role="alert">
      Failed: {outcome.error}
    </p>
  );
}
