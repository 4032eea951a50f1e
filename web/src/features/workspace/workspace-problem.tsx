// workspace-problem.tsx: why the session's files cannot be shown right now, in the hub's words (the
// runner is away, the session ended, a path leads outside the session's directory), with a retry.
import { IconRefresh } from '../../lib/ui/icons.tsx';

export function WorkspaceProblem({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <div className="workspace-problem" role="alert">
      <p className="workspace-problem-title">{title}</p>
      <p>{message.charAt(0).toUpperCase() + message.slice(1)}</p>
      {onRetry ? (
        <button type="button" className="button button-quiet" onClick={onRetry}>
          <IconRefresh size={16} /> Try again
        </button>
      ) : null}
    </div>
  );
}
