// outbox.ts: what a client owes the hub, kept until acked. A runner's (chat + session state) is on
// disk: one small bun:sqlite file per session under TETHER_HOME/outbox/, so a hub outage (or a runner
// restart) loses nothing: entries are read back in order and resent until the hub acks them. A
// daemon's (runner:exited reports) is in memory (memoryOutbox).
// Invariants: entries are delivered in insertion order (seq); an entry leaves the outbox only when
// acked (or refused for good by the hub); the hub dedupes chat by message id, state is idempotent,
// so a resend after a lost ack is harmless.
import { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliPayload } from '@tether/shared';
import { walSync } from './wal-sync.ts';

/** Events that must reach the hub even across an outage, in order. Terminal bytes and approvals are
 *  live-only. session:command-finished rides here so that it reaches tabs after the model patch
 *  it follows (a viewer that stops waiting must already see the model claude kept or set). */
export type OutboxEventName = 'message:append' | 'session:update' | 'session:end' | 'prompt:status' | 'runner:exited' | 'session:command-finished';
export type OutboxEntry = { [E in OutboxEventName]: { seq: number; event: E; payload: CliPayload<E> } }[OutboxEventName];

export type Outbox = {
  path: string;
  sessionId: string;
  push<E extends OutboxEventName>(event: E, payload: CliPayload<E>): number;
  /** Oldest entries first, at most `limit`. */
  peek(limit: number): OutboxEntry[];
  /** Drop every entry with seq <= `seq` (acked or refused for good). */
  ackThrough(seq: number): void;
  size(): number;
  /** Whether a session:end is waiting in the outbox. */
  hasEnd(): boolean;
  /** A small key/value store next to the entries (the last registration, for replay by another process). */
  getMeta(key: string): string | null;
  setMeta(key: string, value: string): void;
  close(): void;
  /** Close and delete the file (only once everything is acked). */
  destroy(): void;
};

/** What the hub link needs of an outbox. */
export type OutboxQueue = Pick<Outbox, 'push' | 'peek' | 'ackThrough' | 'size' | 'setMeta'>;

/** An outbox that lives as long as its process (the daemon's runner:exited reports). */
export function memoryOutbox(): OutboxQueue {
  let entries: OutboxEntry[] = [];
  let seq = 0;
  return {
    push: (event, payload) => {
      seq += 1;
      entries.push({ seq, event, payload } as OutboxEntry);
      return seq;
    },
    peek: (limit) => entries.slice(0, limit),
    ackThrough: (through) => {
      entries = entries.filter((entry) => entry.seq > through);
    },
    size: () => entries.length,
    setMeta: () => {},
  };
}

/** `<dir>/<sessionId>.lock` holds the pid of the process that owns an outbox. An outbox without a
 *  lock, or whose lock names a dead process, is an orphan another runner may deliver (orphans.ts). */
export function outboxLockPath(options: { dir: string; sessionId: string }): string {
  return join(options.dir, `${options.sessionId}.lock`);
}

export function outboxOwnerAlive(options: { dir: string; sessionId: string }): boolean {
  const lock = outboxLockPath(options);
  if (!existsSync(lock)) return false;
  const pid = Number(readFileSync(lock, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function openOutbox(options: { dir: string; sessionId: string }): Outbox {
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const path = join(options.dir, `${options.sessionId}.sqlite`);
  const lock = outboxLockPath(options);
  writeFileSync(lock, String(process.pid), { mode: 0o600 });
  const db = new Database(path, { create: true });
  db.exec('PRAGMA journal_mode = WAL');
  // NORMAL: a commit is in the WAL when push returns (a crash or kill of the runner loses nothing),
  // and wal-sync.ts puts it on disk off the event loop (a power cut loses the last few ms at most).
  // FULL fsync'd on the runner's one thread, in the middle of an approval's round trip.
  db.exec('PRAGMA synchronous = NORMAL');
  const durable = walSync({ walPath: `${path}-wal` });
  db.exec('CREATE TABLE IF NOT EXISTS outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL, payload TEXT NOT NULL)');
  db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const insert = db.prepare<{ seq: number }, [string, string]>('INSERT INTO outbox (event, payload) VALUES (?, ?) RETURNING seq');
  const select = db.prepare<{ seq: number; event: string; payload: string }, [number]>('SELECT seq, event, payload FROM outbox ORDER BY seq LIMIT ?');
  const remove = db.prepare<unknown, [number]>('DELETE FROM outbox WHERE seq <= ?');
  const count = db.prepare<{ n: number }, []>('SELECT COUNT(*) AS n FROM outbox');
  const ends = db.prepare<{ n: number }, []>("SELECT COUNT(*) AS n FROM outbox WHERE event = 'session:end'");
  const metaGet = db.prepare<{ value: string }, [string]>('SELECT value FROM meta WHERE key = ?');
  const metaSet = db.prepare<unknown, [string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    db.close();
    rmSync(lock, { force: true });
  };
  return {
    path,
    sessionId: options.sessionId,
    push: (event, payload) => {
      const seq = insert.get(event, JSON.stringify(payload))!.seq;
      durable.wrote();
      return seq;
    },
    peek: (limit) =>
      select.all(limit).map((row) => ({ seq: row.seq, event: row.event, payload: JSON.parse(row.payload) }) as OutboxEntry),
    // Not synced on purpose: a delete lost to a power cut only resends what the hub acked (harmless).
    ackThrough: (seq) => {
      remove.run(seq);
    },
    size: () => count.get()!.n,
    hasEnd: () => ends.get()!.n > 0,
    getMeta: (key) => metaGet.get(key)?.value ?? null,
    setMeta: (key, value) => {
      metaSet.run(key, value);
      durable.wrote();
    },
    close,
    destroy: () => {
      close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}
