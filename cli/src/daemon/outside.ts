// outside.ts: the daemon's index of conversations tether did not run (issue 40), when finding them is
// on (`tether daemon --outside`, or the machine's switch on the phone: `daemon:outside`).
//
//   each agent's room (agents/<agent>/conversations.ts) ─► outside-scan.ts ─► entries
//   fs.watch on every conversation directory ─dirty dirs (debounced)─► rescan those ─► changes ─► outside:index
//   a hub (re)connect ─► the whole index again (reset … complete)
//
// Idle cost: nothing runs while nothing changes but a slow safety pass (SAFETY_MS: missed watch
// events, a claude that died without removing its status file) and, while a file is inside the live
// window, one timer to flip it; no process is ever started. Conversations tether ran are left out:
// every runner records its agent session id in TETHER_HOME/claude-sessions/ (runner resume state),
// and the hub leaves out any its sessions name as well.
import { existsSync, readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { OUTSIDE_BATCH_BYTES, OUTSIDE_BATCH_ENTRIES, type OutsideEntry, type OutsideIndex } from '@tether/shared';
import { createConversationScan, type AgentSource } from './outside-scan.ts';

/** Gathering watch events before a rescan: a claude turn writes a burst of lines. */
const DEBOUNCE_MS = 1_000;
/** The safety pass. */
const SAFETY_MS = 5 * 60_000;

export type OutsideIndexer = ReturnType<typeof createOutsideIndexer>;
export type FoundConversation = OutsideEntry & { path: string };

/** Agent session ids tether's runners on this machine reported (their resume state's file names). */
export function tetherRanIds(tetherHome: string): Set<string> {
  const dir = join(tetherHome, 'claude-sessions');
  if (!existsSync(dir)) return new Set();
  return new Set(readdirSync(dir).flatMap((name) => (name.endsWith('.json') ? [name.slice(0, -5)] : [])));
}

/** Entries cut into events under the event cap. */
export function batches(entries: OutsideEntry[], removed: string[]): OutsideIndex[] {
  const out: OutsideIndex[] = [];
  let current: OutsideEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = JSON.stringify(entry).length + 1;
    if (current.length >= OUTSIDE_BATCH_ENTRIES || (current.length > 0 && bytes + size > OUTSIDE_BATCH_BYTES)) {
      out.push({ entries: current, removed: [] });
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  out.push({ entries: current, removed: [] });
  for (let i = 0; i < removed.length; i += OUTSIDE_BATCH_ENTRIES) out.push({ entries: [], removed: removed.slice(i, i + OUTSIDE_BATCH_ENTRIES) });
  return out.filter((b, i) => i === 0 || b.entries.length > 0 || (b.removed?.length ?? 0) > 0);
}

const sameEntry = (a: OutsideEntry, b: OutsideEntry) =>
  a.title === b.title && a.folder === b.folder && a.lastActivity === b.lastActivity && a.sizeBytes === b.sizeBytes && a.live === b.live && a.agent === b.agent && a.backgroundId === b.backgroundId;

const publicEntry = ({ path: _path, ...entry }: FoundConversation): OutsideEntry => entry;

export function createOutsideIndexer(o: { env: NodeJS.ProcessEnv; tetherHome: string; sources: AgentSource[]; send: (index: OutsideIndex) => void; now?: () => number }) {
  const now = o.now ?? Date.now;
  const scan = createConversationScan({ env: o.env, sources: o.sources });
  const watchers = new Map<string, FSWatcher>();
  const dirty = new Set<string>();
  let reported = new Map<string, OutsideEntry>();
  let current = new Map<string, FoundConversation>();
  let running = false;
  let debounce: ReturnType<typeof setTimeout> | null = null;
  let liveTimer: ReturnType<typeof setTimeout> | null = null;
  let safety: ReturnType<typeof setInterval> | null = null;
  let liveDirty = false;

  const watchDirs = () => {
    const wanted = new Set(scan.watchedDirs());
    for (const [dir, watcher] of watchers) if (!wanted.has(dir)) (watcher.close(), watchers.delete(dir));
    for (const dir of wanted) {
      if (watchers.has(dir) || !existsSync(dir)) continue;
      try {
        watchers.set(dir, watch(dir, { persistent: false }, () => changed(dir)));
      } catch {
        // out of watches: the safety pass still finds it
      }
    }
  };

  const changed = (dir: string) => {
    if (o.sources.some(({ source }) => source.liveWriters?.dir(o.env) === dir)) liveDirty = true;
    else dirty.add(dir);
    debounce ??= setTimeout(settle, DEBOUNCE_MS);
  };

  const refresh = () => {
    current = scan.entries({ now: now(), exclude: tetherRanIds(o.tetherHome) });
    const until = scan.liveUntil(now());
    if (liveTimer) clearTimeout(liveTimer);
    liveTimer = until === null ? null : setTimeout(settle, until - now() + 50);
  };

  /** What changed since the last report, sent. */
  const report = () => {
    const changedEntries = [...current.values()].filter((e) => !reported.has(e.agentSessionId) || !sameEntry(reported.get(e.agentSessionId)!, e)).map(publicEntry);
    const removed = [...reported.keys()].filter((id) => !current.has(id));
    if (changedEntries.length === 0 && removed.length === 0) return;
    for (const batch of batches(changedEntries, removed)) o.send(batch);
    reported = new Map([...current].map(([id, e]) => [id, publicEntry(e)]));
  };

  const settle = () => {
    debounce = null;
    if (!running) return;
    scan.scanDirs(dirty);
    dirty.clear();
    if (liveDirty) scan.readLiveWriters();
    liveDirty = false;
    watchDirs();
    refresh();
    report();
  };

  /** Everything again, sent whole (reset … complete). */
  const fullReport = () => {
    const all = [...current.values()].map(publicEntry);
    const sent = batches(all, []);
    sent.forEach((batch, i) => o.send({ ...batch, reset: i === 0, complete: i === sent.length - 1 }));
    reported = new Map(all.map((e) => [e.agentSessionId, e]));
  };

  return {
    enabled: () => running,
    start() {
      if (running) return;
      running = true;
      scan.scanAll();
      watchDirs();
      refresh();
      fullReport();
      safety = setInterval(() => {
        scan.scanAll();
        watchDirs();
        refresh();
        report();
      }, SAFETY_MS);
      safety.unref?.();
    },
    stop() {
      running = false;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      for (const timer of [debounce, liveTimer]) if (timer) clearTimeout(timer);
      if (safety) clearInterval(safety);
      debounce = liveTimer = safety = null;
      reported = new Map();
      current = new Map();
    },
    /** A hub connection (again): it gets the whole index. */
    resend() {
      if (running) fullReport();
    },
    /** One conversation as it is on disk right now (an adopt's check), found by a fresh pass. */
    find(agentSessionId: string): FoundConversation | null {
      scan.scanAll();
      if (running) watchDirs();
      const fresh = scan.entries({ now: now(), exclude: new Set() });
      return fresh.get(agentSessionId) ?? null;
    },
  };
}
