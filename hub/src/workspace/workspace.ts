// workspace.ts: a viewer's read of a session's working directory (changes against HEAD, a listing,
// a file), asked of the runner that sits in it and forwarded as it answers. The hub keeps none of it.
//
//   REST (http/routes/workspace.ts) ─► here: session of the caller's namespace? live? ─► runner
//   (RunnerCommands.ask: the runner room, on whichever hub the runner is) ─► answer checked ─► ack
//
// Invariants: another namespace's session is `not_found`, like a missing one; an ended session is
// `gone`; a runner that is not connected, or does not answer in time, is a clear error, never an
// empty answer; what the runner sends is parsed with the shared schema before anyone sees it.
// A runner that is connected but silent holds each question until its time runs out, so questions
// waiting on runners are capped per namespace (the caller: every token and web login of an account
// is one namespace, so more tokens buy no more) and per session; past a cap the answer is an
// immediate `rate_limited` with the reason. The counts are this hub's (a cluster's hubs each count).
import {
  ackError,
  isFinalStatus,
  WorkspaceAnswerSchema,
  type Ack,
  type AckError,
  type Namespace,
  type Session,
  type WorkspaceAnswer,
  type WorkspaceQuery,
} from '@tether/shared';
import type { RunnerCommands } from '../facts/runners.ts';
import { askRunner } from '../facts/ask-runner.ts';

/** Changes: a runner answers after a few git calls (each capped at 12 s, cli/src/workspace/git.ts);
 *  a large repository's status takes a few seconds. Longer means it is stuck or gone. */
export const WORKSPACE_ANSWER_TIMEOUT_MS = 20_000;
/** A listing or a file: a few system calls on the runner's disk. */
export const WORKSPACE_READ_TIMEOUT_MS = 8_000;
/** Questions one namespace may have waiting on runners at once (a phone and a laptop each opening
 *  Files and Changes on a refresh ask three or four). */
export const WORKSPACE_MAX_WAITING_PER_NAMESPACE = 8;
/** Questions waiting on one session's runner at once. */
export const WORKSPACE_MAX_WAITING_PER_SESSION = 4;

export type Workspace = ReturnType<typeof createWorkspace>;

export function createWorkspace(options: {
  sessionOf: (ns: Namespace, sessionId: string) => Promise<Session | null>;
  runners: RunnerCommands;
  /** Tests shorten the waits; `read` is for listings and files. */
  timeoutMs?: { changes: number; read: number };
}) {
  const timeouts = options.timeoutMs ?? { changes: WORKSPACE_ANSWER_TIMEOUT_MS, read: WORKSPACE_READ_TIMEOUT_MS };
  const waiting = createWaitingCount();
  return {
    /** `against: 'base'` (changes only): the whole branch since the session's worktree started,
     *  from the base the hub recorded when the daemon made it (never a commit from the caller). */
    async query(ns: Namespace, asked: WorkspaceQuery, opts: { against?: 'head' | 'base' } = {}): Promise<Ack<WorkspaceAnswer>> {
      let query = asked;
      const session = await options.sessionOf(ns, query.sessionId);
      if (!session) return ackError('not_found', 'no such session');
      if (isFinalStatus(session.status)) return ackError('gone', "the session has ended: its files are read through its runner, which has exited");
      if (opts.against === 'base' && query.kind === 'changes') {
        const base = session.worktree?.base;
        if (!base) return ackError('bad_request', 'this session did not start in a worktree of its own (or its machine runs an older tether), so there is no branch base to compare with');
        query = { ...query, base };
      }
      const timeoutMs = query.kind === 'changes' ? timeouts.changes : timeouts.read;
      const slot = waiting.take(ns, query.sessionId);
      if (!slot.ok) return slot;
      try {
        return await askRunner({ runners: options.runners, ns, sessionId: query.sessionId, event: 'workspace:query', payload: query, timeoutMs, schema: WorkspaceAnswerSchema, asked: 'this question' });
      } finally {
        slot.release();
      }
    },
  };
}

/** Questions waiting on runners, per namespace and per session; `take` refuses past a cap. */
function createWaitingCount() {
  const counts = new Map<string, number>();
  const add = (key: string, by: number) => {
    const n = (counts.get(key) ?? 0) + by;
    if (n > 0) counts.set(key, n);
    else counts.delete(key);
  };
  return {
    take(ns: Namespace, sessionId: string): { ok: true; release(): void } | AckError {
      const nsKey = `ns\0${ns}`;
      const sessionKey = `session\0${ns}\0${sessionId}`;
      if ((counts.get(sessionKey) ?? 0) >= WORKSPACE_MAX_WAITING_PER_SESSION) {
        return ackError('rate_limited', `${WORKSPACE_MAX_WAITING_PER_SESSION} questions are already waiting on this session's runner (it is slow or silent); try again when they are answered`);
      }
      if ((counts.get(nsKey) ?? 0) >= WORKSPACE_MAX_WAITING_PER_NAMESPACE) {
        return ackError('rate_limited', `${WORKSPACE_MAX_WAITING_PER_NAMESPACE} Files and Changes questions of this account are already waiting on runners; try again when they are answered`);
      }
      add(nsKey, 1);
      add(sessionKey, 1);
      let released = false;
      return {
        ok: true,
        release: () => {
          if (released) return;
          released = true;
          add(nsKey, -1);
          add(sessionKey, -1);
        },
      };
    },
  };
}
