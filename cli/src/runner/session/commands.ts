// session/commands.ts: the one table of what the hub may ask of a session's runner, for every launch
// kind. A command means the same in each (prompt, abort, end, model, mode, effort, an answer); the
// launch kind says how it is carried out (interactive/: keys in a PTY; headless/: the agent's protocol).
// What every kind does the same way is here: prompts and answers come from afar (controller
// `remote`), an end is said to the session scope, and an answer goes to the request it names
// (requests/registry.ts), whoever owns it. A prompt names the files a person saved from the phone
// since the last one (file-edits/edited-note.ts).
import type { Delivery } from '../../attachments/attachments.ts';
import type { EffortLevel, PermissionMode } from '@tether/shared';
import type { HubCommandHandlers } from '../../hub-link/commands.ts';
import type { SessionCore } from './core.ts';

/** How one launch kind carries out each command. A command it leaves out is not handled there. */
export type LaunchCommands = {
  deliver(delivery: Delivery): void;
  abort(): void;
  /** The session is being ended: nothing more is sent, and undelivered prompts go back with `why`. */
  closePrompts(why: string): void;
  /** Ends the agent the way its launch kind does (the ender). */
  end(): void;
  /** An attached session only: stops its background session in the agent's pool, then ends (a
   *  person confirmed it on the phone: SessionStop.stopInPool). */
  stopInPool?(): void;
  setModel?(model: string): void;
  setMode?(mode: PermissionMode): void;
  setEffort?(level: EffortLevel): void;
  /** Commands only this launch kind has (a PTY's terminal). */
  more?: HubCommandHandlers;
};

export function sessionCommands(core: Pick<SessionCore, 'controller' | 'stopAsked' | 'requests' | 'edited' | 'folderRules'>, launch: LaunchCommands): HubCommandHandlers {
  const { setModel, setMode, setEffort } = launch;
  return {
    'prompt:deliver': (delivery) => {
      core.controller.set('remote');
      // Files the person saved from the phone since: the agent is told with this prompt.
      launch.deliver({ ...delivery, text: core.edited.noteFor(delivery.text) });
    },
    'session:abort': () => launch.abort(),
    'session:stop': ({ stopInPool }) => {
      launch.closePrompts('the session was ended');
      core.stopAsked('the session was ended');
      if (stopInPool && launch.stopInPool) launch.stopInPool();
      else launch.end();
    },
    ...(setModel ? { 'session:set-model': ({ model }) => setModel(model) } : {}),
    ...(setMode ? { 'session:set-mode': ({ mode }) => setMode(mode) } : {}),
    ...(setEffort ? { 'session:set-effort': ({ level }) => setEffort(level) } : {}),
    'approval:answered': ({ requestId, answer }) => {
      core.controller.set('remote');
      core.requests.answered({ requestId, answer });
    },
    'rules:sync': ({ rules }) => core.folderRules.sync(rules),
    ...launch.more,
  };
}
