// sessions-empty.tsx: what the list shows before the first session: how to start one, from a
// terminal (copyable, in the words of how the hub's tether was installed: desk-command.ts) or from
// here once a machine runs `tether daemon`.
import { useHubFeatures } from '../../lib/queries.ts';
import { CopyCommand } from '../../lib/ui/copy-command.tsx';
import { IconTerminal } from '../../lib/ui/icons.tsx';
import { deskCommand } from './desk-command.ts';

export function SessionsEmpty({ canStartRemotely }: { canStartRemotely: boolean }) {
  const desk = deskCommand(useHubFeatures()?.install);
  return (
    <section className="empty-state" aria-labelledby="empty-title">
      <div className="empty-state-icon" aria-hidden="true">
        <IconTerminal size={28} />
      </div>
      <h2 id="empty-title">No sessions yet</h2>
      <p>
        Start Claude Code, Codex or Gemini CLI through tether {desk.where === 'checkout' ? 'in a terminal, in your tether checkout' : 'in any terminal on your computer'}. It shows
        up here right away.
      </p>
      <CopyCommand command={desk.command} label={`Copy command: ${desk.command}`} />
      <p className="empty-state-hint">
        <code>codex</code> or <code>gemini</code> in place of <code>claude</code> starts the others.
      </p>
      <p className="empty-state-hint">
        {canStartRemotely ? (
          <>Or start one on a connected machine with the <strong>New session</strong> button.</>
        ) : (
          <>
            To start sessions from here, run <code>{desk.tether} daemon</code> on a computer. Its machine then appears and
            <strong> New session</strong> becomes available.
          </>
        )}
      </p>
    </section>
  );
}
