// workspace.ts: a viewer's read of a session's working directory (changes against HEAD, a listing,
// a file), asked of the runner that sits in it and relayed as it answers. The hub keeps none of it.
//
//   REST (http/routes/workspace.ts) ─► here: session of the caller's namespace? live? ─► runner
//   (RunnerCommands.ask: the runner room, on whichever hub the runner is) ─► answer checked ─► ack
//
// Invariants: another namespace's session is `not_found`, like a missing one; an ended session is
// `gone`; a runner that is not connected, or does not answer in time, is a clear error, never an
// empty answer; what the runner sends is parsed with the shared schema before anyone sees it.
import {
  AckErrorSchema,
  ackError,
  isFinalStatus,
  WorkspaceAnswerSchema,
  type Ack,
  type Namespace,
  type Session,
  type WorkspaceAnswer,
  type WorkspaceQuery,
} from '@tether/shared';
import type { RunnerCommands } from '../facts/runners.ts';

/** A runner answers after a few git calls and file reads; a large repository's status takes a few
 *  seconds. Longer means it is stuck or gone. */
export const WORKSPACE_ANSWER_TIMEOUT_MS = 20_000;

export type Workspace = ReturnType<typeof createWorkspace>;

export function createWorkspace(options: {
  sessionOf: (ns: Namespace, sessionId: string) => Promise<Session | null>;
  runners: RunnerCommands;
  timeoutMs?: number;
}) {
  const timeoutMs = options.timeoutMs ?? WORKSPACE_ANSWER_TIMEOUT_MS;
  return {
    async query(ns: Namespace, query: WorkspaceQuery): Promise<Ack<WorkspaceAnswer>> {
      const session = await options.sessionOf(ns, query.sessionId);
      if (!session) return ackError('not_found', 'no such session');
      if (isFinalStatus(session.status)) return ackError('gone', "the session has ended: its files are read through its runner, which has exited");
      let answers: unknown[];
      try {
        answers = await options.runners.ask(ns, query.sessionId, 'workspace:query', query, timeoutMs);
      } catch {
        return ackError('internal', `the session's runner did not answer within ${Math.round(timeoutMs / 1000)} s (a tether older than the hub does not know this question)`);
      }
      if (answers.length === 0) return ackError('conflict', "the session's runner is not connected to the hub right now (its machine may be asleep or offline)");
      // One runner per session; a second socket of it (a reconnect not yet noticed) answers the same.
      const read = answers.map(readAnswer);
      return read.find((a) => a.ok) ?? read[0]!;
    },
  };
}

function readAnswer(raw: unknown): Ack<WorkspaceAnswer> {
  if (raw && typeof raw === 'object' && (raw as { ok?: unknown }).ok === true) {
    const { ok: _ok, ...rest } = raw as Record<string, unknown>;
    const parsed = WorkspaceAnswerSchema.safeParse(rest);
    if (parsed.success) return { ok: true, ...parsed.data };
  }
  const refused = AckErrorSchema.safeParse(raw);
  if (refused.success) return refused.data;
  return ackError('internal', "the session's runner sent an answer this hub cannot read (an older or newer tether?)");
}
