// sessions-empty.tsx: what the list shows before the first session: how to start one, from a
// terminal (`tether claude`, copyable) or from here once a machine runs `tether daemon`.
import { CopyCommand } from '../../lib/ui/copy-command.tsx';
import { IconTerminal } from '../../lib/ui/icons.tsx';

export function SessionsEmpty({ canStartRemotely }: { canStartRemotely: boolean }) {
  return (
    <section className="empty-state" aria-labelledby="empty-title">
      <div className="empty-state-icon" aria-hidden="true">
        <IconTerminal size={28} />
      </div>
      <h2 id="empty-title">No sessions yet</h2>
      <p>Start Claude Code through tether in any terminal on your computer. It shows up here right away.</p>
      <CopyCommand command="tether claude" label="Copy command: tether claude" />
      <p className="empty-state-hint">
        {canStartRemotely ? (
          <>Or start one on a connected machine with the <strong>New session</strong> button.</>
        ) : (
          <>
            To start sessions from here, run <code>tether daemon</code> on a computer. Its machine then appears and
            <strong> New session</strong> becomes available.
          </>
        )}
      </p>
    </section>
  );
}
