// session-commands.ts: the one table of what the hub may ask of a session's runner, for every launch
// kind. A command means the same in each (prompt, abort, end, model, mode, effort, an answer); the
// launch kind says how it is carried out (runner.ts: keys in a PTY; headless/: the agent's protocol).
// What every kind does the same way is here: prompts and answers come from afar (controller
// `remote`), an end is asked once and said to the session scope, and an answer is offered to the
// session's request owners in turn.
import type { Delivery } from '../attachments/attachments.ts';
import type { EffortLevel, PermissionMode } from '@tether/shared';
import type { HubCommandHandlers } from '../hub-link/commands.ts';
import type { SessionCore } from './session-core.ts';

type Answered = Parameters<NonNullable<HubCommandHandlers['approval:answered']>>[0];

/** Something that may be waiting for an answer: true when the answer was its own. */
export type RequestOwner = { answered(answered: Answered): boolean };

/** How one launch kind carries out each command. A command it leaves out is not handled there. */
export type LaunchCommands = {
  deliver(delivery: Delivery): void;
  abort(): void;
  /** The session is being ended: nothing more is sent, and undelivered prompts go back with `why`. */
  closePrompts(why: string): void;
  /** Ends the agent the way its launch kind does (the ender). */
  end(): void;
  setModel?(model: string): void;
  setMode?(mode: PermissionMode): void;
  setEffort?(level: EffortLevel): void;
  /** Who may own an answer, asked in order; the last one takes what no one before claimed. */
  owners: () => { first: RequestOwner[]; last: { answered(answered: Answered): unknown } };
  /** Commands only this launch kind has (a PTY's terminal). */
  more?: HubCommandHandlers;
};

export function sessionCommands(core: Pick<SessionCore, 'controller' | 'stopAsked'>, launch: LaunchCommands): HubCommandHandlers {
  const { setModel, setMode, setEffort } = launch;
  return {
    'prompt:deliver': (delivery) => {
      core.controller.set('remote');
      launch.deliver(delivery);
    },
    'session:abort': () => launch.abort(),
    'session:stop': () => {
      launch.closePrompts('the session was ended');
      core.stopAsked('the session was ended');
      launch.end();
    },
    ...(setModel ? { 'session:set-model': ({ model }) => setModel(model) } : {}),
    ...(setMode ? { 'session:set-mode': ({ mode }) => setMode(mode) } : {}),
    ...(setEffort ? { 'session:set-effort': ({ level }) => setEffort(level) } : {}),
    'approval:answered': (answered) => {
      core.controller.set('remote');
      const { first, last } = launch.owners();
      if (!first.some((owner) => owner.answered(answered))) last.answered(answered);
    },
    ...launch.more,
  };
}
