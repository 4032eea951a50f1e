// file-edits.ts: a person's save of one text file in a session's folder, asked of the session's
// runner and said in the session's chat. The workspace room reads; this one forwards one write.
//
//   REST (http/routes/file-edits.ts) ─► here: the caller's session? live? protected name? mid-turn?
//   ─► runner (RunnerCommands.ask 'file:write') ─► answer checked (FileWriteAnswerSchema) ─► chat line ─► ack
//
// Invariants: another namespace's session is `not_found`; an ended one is `gone`; a path shared
// editRefusal names (agents' settings, hooks, `.envrc`, `.git`) is `forbidden` before the runner is
// asked (the runner checks again, on the real path); a save while the agent is thinking or waiting
// on a person is refused unless the request confirms; a save over a file that changed since it was
// opened is the runner's `stale` answer, with what the file holds now; every save that was written
// is a system line in the session's chat: which file, who (the caller's token label), which device.
import { randomUUID } from 'node:crypto';
import {
  ackError,
  editRefusal,
  FILE_MID_TURN_REFUSAL,
  FileWriteAnswerSchema,
  isFinalStatus,
  type Ack,
  type FileWrite,
  type FileWriteAnswer,
  type Namespace,
} from '@tether/shared';
import type { RunnerCommands } from '../facts/runners.ts';
import { askRunner } from '../facts/ask-runner.ts';
import type { Sessions } from '../sessions/lifecycle.ts';

/** A save: a few system calls and one fsync on the runner's disk. */
export const FILE_WRITE_TIMEOUT_MS = 10_000;
/** JSON characters a save's text may take on its way to the runner (the event cap is 1 MiB). */
const WRITE_ENCODED_MAX_CHARS = 800 * 1024;

export type FileEdits = ReturnType<typeof createFileEdits>;
export type FileEditor = { namespace: Namespace; label: string; device: string | null };

export function createFileEdits(options: { sessions: Pick<Sessions, 'get' | 'appendMessages'>; runners: RunnerCommands }) {
  return {
    async write(actor: FileEditor, input: { sessionId: string; request: FileWrite; confirm: boolean }): Promise<Ack<FileWriteAnswer>> {
      const { namespace: ns } = actor;
      const { sessionId, request } = input;
      const session = await options.sessions.get(ns, sessionId);
      if (!session) return ackError('not_found', 'no such session');
      if (isFinalStatus(session.status)) return ackError('gone', 'the session has ended: files are saved through its runner, which has exited');
      const refused = editRefusal(request.path);
      if (refused) return ackError('forbidden', `${JSON.stringify(request.path)} ${refused}`);
      if (JSON.stringify(request.text).length > WRITE_ENCODED_MAX_CHARS) return ackError('too_large', 'the text is too large to save from here');
      if ((session.status === 'thinking' || session.status === 'waiting') && !input.confirm) return ackError('conflict', FILE_MID_TURN_REFUSAL);
      const answer = await askRunner({ runners: options.runners, ns, sessionId, event: 'file:write', payload: { sessionId, ...request }, timeoutMs: FILE_WRITE_TIMEOUT_MS, schema: FileWriteAnswerSchema, asked: 'saving a file', prefer: (a) => a.kind === 'written' });
      if (!answer.ok || answer.kind !== 'written') return answer;
      if (answer.path !== request.path) return ackError('internal', "the session's runner answered for another file than the one saved");
      const midTurn = input.confirm && session.status !== 'idle' ? ' while the agent was mid-turn' : '';
      const by = actor.device ? `${actor.label} on ${actor.device}` : actor.label;
      const line = `Edited ${request.path} from the web app (${by})${midTurn}. The agent is told with its next prompt.`;
      await options.sessions.appendMessages(ns, sessionId, [
        { id: `file-edit-${randomUUID()}`, role: 'system', content: [{ type: 'text', text: line }], createdAt: Date.now(), sidechain: false, agentId: null, promptId: null, agentSessionId: null },
      ]);
      return answer;
    },
  };
}
