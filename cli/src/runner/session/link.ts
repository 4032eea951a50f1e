// session/link.ts: the session's hub link (optional; never fatal) and its on-disk outbox, opened
// once the runner says the identity is known. On every connect it re-sends the slash commands the
// agent takes (live-only: a list the hub missed is sent at the next connect) and answers viewers'
// reads of the session's directory (workspace/). Stopping it keeps an outbox the hub has not emptied.
import { join } from 'node:path';
import type { SessionRegistration, SlashCommand } from '@tether/shared';
import { openOutbox, type Outbox } from '../../hub-link/outbox.ts';
import { connectHubLink, type HubCommandHandlers, type HubLink } from '../../hub-link/link.ts';
import { createWorkspaceReader } from '../../workspace/workspace.ts';
import type { RunnerOptions } from './options.ts';
import { createGitActions } from '../../git-actions/git-actions.ts';
import { createEditedFiles } from '../../file-edits/edited-note.ts';
import { createFileEditor } from '../../file-edits/file-edits.ts';
import { createFilesFinder } from '../../find/find-files.ts';

export function createSessionLink(o: { options: RunnerOptions; sessionId: () => string; registration: () => SessionRegistration; log: (line: string) => void }) {
  const { options, log } = o;
  let outbox = null as Outbox | null;
  let link = null as HubLink | null;
  let slashCommands: SlashCommand[] | null = null;
  /** Files a person saved from the phone: the agent's next prompt names them (commands.ts). */
  const edited = createEditedFiles();
  const sendSlashCommands = () => {
    if (slashCommands) void link?.request('session:commands', { sessionId: o.sessionId(), commands: slashCommands });
  };
  return {
    link: () => link,
    edited,
    start(s: { commands: HubCommandHandlers; onConnected: () => void }) {
      if (!options.hub || link) return;
      outbox = openOutbox({ dir: join(options.tetherHome, 'outbox'), sessionId: o.sessionId() });
      link = connectHubLink({
        hubUrl: options.hub.url,
        token: options.hub.token,
        sessionId: o.sessionId(),
        outbox,
        registration: o.registration,
        onState: (state) => {
          log(`hub: ${state.kind}${'reason' in state ? ` (${state.reason})` : ''}${state.kind === 'down' && state.refused ? ': the hub refused the connection' : ''}`);
          if (state.kind === 'connected') {
            s.onConnected();
            sendSlashCommands();
          }
        },
        onProblem: (message) => log(`hub: ${message}`),
        commands: s.commands,
        // A viewer's read of the session's directory (Changes, Files): the same for every launch kind.
        // A viewer's git writes (stage, commit, push) in the same folder: their own room, git-actions/;
        // a person's save of one file: file-edits/; a search of the folder's files: find/.
        queries: {
          'workspace:query': createWorkspaceReader({ root: options.cwd }).answer,
          'git:action': createGitActions({ root: options.cwd }).answer,
          'file:write': createFileEditor({ root: options.cwd, edited }).answer,
          'find:files': createFilesFinder({ root: options.cwd }).answer,
        },
      });
    },
    stop() {
      link?.stop();
      if (outbox) {
        if (outbox.size() === 0) outbox.destroy();
        else outbox.close();
      }
    },
    /** The slash commands the agent takes (headless claude: from its `initialize` answer). */
    reportSlashCommands(commands: SlashCommand[]) {
      slashCommands = commands;
      if (link?.connected()) sendSlashCommands();
    },
  };
}
