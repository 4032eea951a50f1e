// sub-agents.ts: which Codex thread asks an approval, when it is not the session's own (a sub-agent
// Codex spawned), as the protocol's AskedBy: its nickname and role as Codex names them, and its
// thread id's first 8 characters.
//
//   PTY:      a sub-agent's PermissionRequest hook keeps the session's `session_id` (the root
//             thread's) and adds `agent_id` (its own thread) and `agent_type`, with its own
//             `transcript_path`; it is named by that rollout's first line (session_meta:
//             `agent_nickname`, `agent_role`, or `source.subagent.thread_spawn.{…}`). Seen with 0.171.0.
//   headless: each request names its `threadId`; app-server announces threads (`thread/started`
//             {thread: {id, agentNickname, agentRole}}), but not always a sub-agent's to this client
//             (0.171.0), so one not seen is asked for once (`thread/read`), briefly.
import { closeSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { AskedBySchema, type AskedBy } from '@tether/shared';

type Json = Record<string, unknown>;

/** How much of a rollout's first line is read for its session_meta (it holds the base instructions,
 *  a few KB; the names come before them). */
const META_BYTES = 64 * 1024;
/** Threads a headless session remembers the names of (a runaway spawner cannot grow it further). */
const MAX_THREADS = 256;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const asObject = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);

/** Who asks, in the protocol's bounds: a field the schema would refuse (too long, a control
 *  character) is left out rather than failing the request. Null when nothing names it. */
export function askedByOf(o: { threadId: string; nickname?: unknown; role?: unknown }): AskedBy | null {
  const fields: Record<string, string | undefined> = { nickname: text(o.nickname), role: text(o.role), thread: o.threadId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 8) || undefined };
  const who: Json = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && AskedBySchema.safeParse({ [key]: value }).success) who[key] = value;
  }
  const parsed = AskedBySchema.safeParse(who);
  return parsed.success ? parsed.data : null;
}

/** The sub-agent's names in a rollout's session_meta line (either place Codex writes them). */
export function namesInSessionMeta(line: string): { nickname?: unknown; role?: unknown } {
  try {
    const meta = asObject(asObject(JSON.parse(line))?.payload);
    if (!meta) return {};
    const spawn = asObject(asObject(asObject(meta.source)?.subagent)?.thread_spawn);
    return { nickname: meta.agent_nickname ?? spawn?.agent_nickname, role: meta.agent_role ?? spawn?.agent_role };
  } catch {
    return {};
  }
}

/** The first line of a rollout file Codex named, bounded; '' when it cannot be read. Only a Codex
 *  rollout (`rollout-….jsonl`) is opened: the path comes from a hook payload. */
function firstLine(path: unknown): string {
  if (typeof path !== 'string' || !/^rollout-[\w.:-]+\.jsonl$/.test(basename(path))) return '';
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(META_BYTES);
    const read = readSync(fd, buffer, 0, META_BYTES, 0);
    const head = buffer.subarray(0, read).toString('utf8');
    const end = head.indexOf('\n');
    return end === -1 ? head : head.slice(0, end);
  } catch {
    return '';
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Agent.askedBy for a PTY Codex: a permission hook from a thread other than the session's own. */
export function codexHookAskedBy(o: { payload: Record<string, unknown>; mainSessionId: string | null }): AskedBy | null {
  const threadId = text(o.payload.agent_id) ?? text(o.payload.session_id);
  if (!threadId || !o.mainSessionId || threadId === o.mainSessionId) return null;
  const names = namesInSessionMeta(firstLine(o.payload.transcript_path));
  // `agent_type` is its role when it has one ("default" names none).
  const type = text(o.payload.agent_type);
  return askedByOf({ threadId, nickname: names.nickname, role: names.role ?? (type !== 'default' ? type : undefined) });
}

/** How long a request waits for a thread's names it was not told (it is asked without them after). */
const READ_TIMEOUT_MS = 1_500;

/** A headless session's threads, named as app-server announces them; `read`: app-server's
 *  `thread/read` for a thread not announced. */
export function createThreadNames(o: { read?: (threadId: string) => Promise<unknown> } = {}) {
  const names = new Map<string, { nickname?: unknown; role?: unknown }>();
  const remember = (id: string, thread: Json) => {
    names.delete(id);
    names.set(id, { nickname: thread.agentNickname, role: thread.agentRole });
    if (names.size > MAX_THREADS) names.delete(names.keys().next().value!);
  };
  /** Asks app-server once for a thread's names; nothing on an error or past the timeout. */
  const lookUp = async (id: string): Promise<void> => {
    if (!o.read) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), READ_TIMEOUT_MS)));
    const answer = await Promise.race([o.read(id).catch(() => null), late]);
    clearTimeout(timer);
    const thread = asObject(asObject(answer)?.thread);
    remember(id, thread && text(thread.id) === id ? thread : {});
  };
  return {
    /** A thread/started notification's `thread`. */
    started(thread: unknown): void {
      const t = asObject(thread);
      const id = text(t?.id);
      if (t && id) remember(id, t);
    },
    /** Who asks a request naming `threadId`: null for the session's own thread (or none named). */
    async asker(request: { threadId: unknown; mainThreadId: string | null }): Promise<AskedBy | null> {
      const id = text(request.threadId);
      if (!id || !request.mainThreadId || id === request.mainThreadId) return null;
      if (!names.has(id)) await lookUp(id);
      return askedByOf({ threadId: id, ...names.get(id) });
    },
  };
}
