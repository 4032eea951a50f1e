// find.ts: Find inside one session: its chat (the store), its terminal's scrollback (this hub's
// replay of it) and its files (asked of its runner), each part answered or refused on its own.
//
//   REST (http/routes/find.ts) ─► here: the caller's session? ─► chat.ts ∥ terminal.ts ∥ runner find:files ─► ack
//
// Invariants: another namespace's session is `not_found` like a missing one, before anything is
// read; a source that cannot be searched (a headless session's terminal, an ended session's
// files, a runner that is offline or silent) is that part's error, the others still answer; a
// runner's answer is parsed with the shared schema. Searches waiting at once are capped per
// namespace (MAX_SEARCHES_PER_NAMESPACE): each may hold a runner's walk for seconds.
import {
  ackError,
  compileLinePattern,
  FilesFindAnswerSchema,
  FIND_FILES_TIME_MS,
  isFinalStatus,
  type Ack,
  type FindAnswer,
  type FindRequestSchema,
  type LinePattern,
  type Namespace,
  type Session,
  type TerminalSnapshot,
} from '@tether/shared';
import type { z } from 'zod';
import type { RunnerCommands } from '../facts/runners.ts';
import { askRunner } from '../facts/ask-runner.ts';
import type { Store } from '../store/store.ts';
import type { TerminalRegistry } from '../terminal/registry.ts';
import { searchChat } from './chat.ts';
import { freshRoom, roomText, searchTerminalText, type TerminalText } from './terminal.ts';

/** Searches of one namespace in progress at once; past it: `rate_limited`. */
export const MAX_SEARCHES_PER_NAMESPACE = 4;
/** The runner's walk stops at FIND_FILES_TIME_MS; this is its answer's way back. */
const FILES_ANSWER_TIMEOUT_MS = FIND_FILES_TIME_MS + 5_000;

export type Find = ReturnType<typeof createFind>;
type Part<K extends keyof FindAnswer> = NonNullable<FindAnswer[K]>;

export function createFind(options: {
  sessionOf: (ns: Namespace, sessionId: string) => Promise<Session | null>;
  store: Pick<Store, 'findMessages'>;
  terminals: Pick<TerminalRegistry, 'find' | 'get'>;
  /** The saved final screen of an ended session whose room this hub no longer holds. */
  finalScreen: (ns: Namespace, sessionId: string) => Promise<TerminalSnapshot | null>;
  runners: RunnerCommands;
  /** Tests shorten the wait for a fresh screen. */
  freshScreenWaitMs?: number;
}) {
  const running = new Map<Namespace, number>();

  async function chat(ns: Namespace, session: Session, pattern: LinePattern, caseSensitive: boolean): Promise<Part<'chat'>> {
    const found = await searchChat({ store: options.store, ns, sessionId: session.id, lastSeq: session.lastSeq, pattern, caseSensitive });
    return found ? { ok: true, ...found } : { ok: false, error: 'no such session' };
  }

  async function terminal(ns: Namespace, session: Session, pattern: LinePattern): Promise<Part<'terminal'>> {
    if (session.launchKind !== 'pty') return { ok: false, error: 'this session runs headless: it has no terminal' };
    let text: TerminalText | null = null;
    const held = options.terminals.find(ns, session.id);
    if (held) text = roomText(held);
    else if (isFinalStatus(session.status)) {
      const screen = await options.finalScreen(ns, session.id);
      text = screen ? { snapshot: screen, bytes: new Uint8Array() } : null;
    }
    if (!isFinalStatus(session.status) && (!held || (held.viewerCount === 0 && !held.ended))) {
      // Nobody watches: the runner streams nothing, so ask it for the screen as it is now.
      const room = held ?? options.terminals.get(ns, session.id);
      const fresh = await freshRoom(room, options.freshScreenWaitMs);
      if (fresh || room.lastSnapshot) text = roomText(room);
      if (!fresh && !room.lastSnapshot) return { ok: false, error: "the terminal's runner did not send its screen in time (it may be offline, or connected to another hub of the cluster)" };
    }
    if (!text) return { ok: false, error: "this hub holds nothing of the session's terminal (it ended before this hub kept its last screen)" };
    return { ok: true, ...searchTerminalText({ text, pattern }) };
  }

  async function files(ns: Namespace, session: Session, request: z.output<typeof FindRequestSchema>): Promise<Part<'files'>> {
    if (isFinalStatus(session.status)) return { ok: false, error: "the session has ended: its files are searched through its runner, which has exited" };
    const answer = await askRunner({
      runners: options.runners,
      ns,
      sessionId: session.id,
      event: 'find:files',
      payload: { sessionId: session.id, q: request.q, mode: request.mode, caseSensitive: request.caseSensitive },
      timeoutMs: FILES_ANSWER_TIMEOUT_MS,
      schema: FilesFindAnswerSchema,
      asked: 'searching files',
    });
    if (!answer.ok) return { ok: false, error: answer.error };
    const { ok: _ok, ...found } = answer;
    return { ok: true, ...found };
  }

  return {
    async find(ns: Namespace, sessionId: string, request: z.output<typeof FindRequestSchema>): Promise<Ack<FindAnswer>> {
      const session = await options.sessionOf(ns, sessionId);
      if (!session) return ackError('not_found', 'no such session');
      const now = running.get(ns) ?? 0;
      if (now >= MAX_SEARCHES_PER_NAMESPACE) return ackError('rate_limited', `${MAX_SEARCHES_PER_NAMESPACE} searches of this account are already running; try again when they finish`);
      running.set(ns, now + 1);
      try {
        const pattern = compileLinePattern({ query: request.q, mode: request.mode, caseSensitive: request.caseSensitive });
        const wants = new Set(request.in);
        const [c, t, f] = await Promise.all([
          wants.has('chat') ? chat(ns, session, pattern, request.caseSensitive) : undefined,
          wants.has('terminal') ? terminal(ns, session, pattern) : undefined,
          wants.has('files') ? files(ns, session, request) : undefined,
        ]);
        return { ok: true, ...(c ? { chat: c } : {}), ...(t ? { terminal: t } : {}), ...(f ? { files: f } : {}) };
      } finally {
        const left = (running.get(ns) ?? 1) - 1;
        if (left > 0) running.set(ns, left);
        else running.delete(ns);
      }
    },
  };
}
