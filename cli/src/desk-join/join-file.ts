// join-file.ts: how a desk finds a headless session it may join (`tether codex --join <session>`):
// the runner of a session whose agent listens for its own TUI (HeadlessEvents.joinable) writes one
// record per session under TETHER_HOME/joins/, readable by this user only, and removes it when the
// session ends. The record holds the listener's address and its token: the token is a secret (whoever
// has it drives the session), so it lives in this 0600 file and the joining TUI's environment only,
// never in a command line, a log or the hub.
//
// Invariants: the folder is 0700 and each file 0600, written whole (a temp name, then renamed); a
// record is read only when its session id is a UUID and its content has every field; a runner that
// is gone (its pid no longer alive) leaves a record that reads as absent.
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionIdSchema } from '@tether/shared';
import { isAlive } from '../agents/alive.ts';

export type DeskJoin = {
  /** The session's agent (its room builds the command that joins). */
  agent: string;
  /** Where the agent listens: ws://127.0.0.1:<port>. */
  url: string;
  /** The bearer token the listener asks for. */
  token: string;
  /** The agent's own id of the live conversation (Codex's thread id). */
  agentSessionId: string;
  /** The file the conversation is written to (it may not exist before the first turn). */
  transcript: string;
  /** The session's folder: the TUI starts there. */
  cwd: string;
  /** The runner that wrote it. */
  pid: number;
};

function joinsDir(home: string): string {
  return join(home, 'joins');
}

function fileOf(home: string, sessionId: string): string {
  if (!SessionIdSchema.safeParse(sessionId).success) throw new Error(`not a session id: ${JSON.stringify(sessionId.slice(0, 60))}`);
  return join(joinsDir(home), `${sessionId}.json`);
}

/** Written by the session's runner; returns the remover it calls when the session ends. */
export function writeDeskJoin(o: { home: string; sessionId: string; join: DeskJoin }): () => void {
  const dir = joinsDir(o.home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = fileOf(o.home, o.sessionId);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(o.join), { mode: 0o600 });
  renameSync(temp, file);
  return () => rmSync(file, { force: true });
}

/** The record of a live session on this machine, or why there is none. */
export function readDeskJoin(o: { home: string; sessionId: string }): { join: DeskJoin } | { error: string } {
  let text: string;
  try {
    text = readFileSync(fileOf(o.home, o.sessionId), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { error: `no session ${o.sessionId} can be joined on this machine: it is not a headless session whose agent listens for its own TUI, or it has ended` };
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const record = parseRecord(text);
  if (!record) return { error: `the join record of session ${o.sessionId} is malformed` };
  if (!isAlive(record.pid)) return { error: `session ${o.sessionId} has ended (its runner, pid ${record.pid}, is gone)` };
  return { join: record };
}

/** The session a desk names by its id or a unique start of it, among those joinable here. */
export function findDeskJoin(o: { home: string; session: string }): { sessionId: string; join: DeskJoin } | { error: string } {
  const wanted = o.session.trim().toLowerCase();
  if (SessionIdSchema.safeParse(wanted).success) {
    const read = readDeskJoin({ home: o.home, sessionId: wanted });
    return 'error' in read ? read : { sessionId: wanted, join: read.join };
  }
  if (!/^[0-9a-f-]{4,}$/.test(wanted)) return { error: `name a session by its id (or at least its first 4 characters): ${JSON.stringify(o.session.slice(0, 60))}` };
  let names: string[];
  try {
    names = readdirSync(joinsDir(o.home));
  } catch {
    names = [];
  }
  const matches = names.filter((name) => name.endsWith('.json') && name.startsWith(wanted)).map((name) => name.slice(0, -'.json'.length));
  if (matches.length === 0) return { error: `no session starting ${wanted} can be joined on this machine` };
  if (matches.length > 1) return { error: `${matches.length} sessions start ${wanted}: give more of the id` };
  const sessionId = matches[0]!;
  const read = readDeskJoin({ home: o.home, sessionId });
  return 'error' in read ? read : { sessionId, join: read.join };
}

function parseRecord(text: string): DeskJoin | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const r = value as Record<string, unknown>;
  const strings = ['agent', 'url', 'token', 'agentSessionId', 'transcript', 'cwd'] as const;
  if (!strings.every((key) => typeof r[key] === 'string' && r[key] !== '') || typeof r.pid !== 'number') return null;
  // Only a loopback listener: a record pointing elsewhere would hand the token to another host.
  if (!/^ws:\/\/127\.0\.0\.1:\d{1,5}$/.test(r.url as string)) return null;
  return { agent: r.agent as string, url: r.url as string, token: r.token as string, agentSessionId: r.agentSessionId as string, transcript: r.transcript as string, cwd: r.cwd as string, pid: r.pid };
}
