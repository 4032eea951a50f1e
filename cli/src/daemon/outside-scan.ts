// outside-scan.ts: the daemon's reading of each agent's saved conversations (agents/conversations.ts)
// into index entries, incrementally: a directory is listed again only when it is dirty (a watch said
// so, or a slow safety pass), a file's head is read again only when its size or mtime changed, and
// nothing is spawned. outside.ts drives it (watches, timers, reports).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentKind, OutsideEntry } from '@tether/shared';
import { readFileHead, type ConversationHead, type ConversationSource } from '../agents/conversations.ts';

/** A conversation file last written within this long is taken as still being written. */
export const LIVE_WINDOW_MS = 5_000;

export type AgentSource = { agent: AgentKind; source: ConversationSource };
type FileState = { agent: AgentKind; mtimeMs: number; size: number; head: ConversationHead | null };
type DirState = { agent: AgentKind; source: ConversationSource; depthLeft: number };

export type ConversationScan = ReturnType<typeof createConversationScan>;

export function createConversationScan(o: { env: NodeJS.ProcessEnv; sources: AgentSource[] }) {
  const files = new Map<string, FileState>();
  /** Every directory walked, with what lies below it; the watcher watches exactly these. */
  const dirs = new Map<string, DirState>();
  const liveIds = new Map<AgentKind, Map<string, { backgroundId: string | null }>>();

  const readFile = (path: string, state: DirState) => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      files.delete(path);
      return;
    }
    const known = files.get(path);
    if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return;
    let head: ConversationHead | null = null;
    try {
      head = state.source.readHead({ path, head: readFileHead(path, state.source.headBytes), env: o.env });
    } catch {
      head = null; // unreadable now: read again when it changes
    }
    files.set(path, { agent: state.agent, mtimeMs: stat.mtimeMs, size: stat.size, head });
  };

  /** List one directory again: its conversation files, and the folders below it (new ones walked;
   *  all of them when `deep`). */
  const listDir = (dir: string, state: DirState, deep: boolean) => {
    let names: import('node:fs').Dirent[];
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      forget(dir);
      return;
    }
    const seen = new Set<string>();
    for (const entry of names) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && state.depthLeft > 0) {
        if (deep || !dirs.has(path)) walk(path, { ...state, depthLeft: state.depthLeft - 1 }, deep);
        seen.add(path);
      } else if (entry.isFile() && state.depthLeft === 0 && state.source.isConversation(entry.name)) {
        readFile(path, state);
        seen.add(path);
      }
    }
    for (const path of [...files.keys(), ...dirs.keys()]) {
      if (path.startsWith(`${dir}/`) && !path.slice(dir.length + 1).includes('/') && !seen.has(path)) forget(path);
    }
  };

  const walk = (dir: string, state: DirState, deep: boolean) => {
    dirs.set(dir, state);
    listDir(dir, state, deep);
  };

  /** A path gone: it, and anything below it. */
  const forget = (path: string) => {
    for (const key of files.keys()) if (key === path || key.startsWith(`${path}/`)) files.delete(key);
    for (const key of dirs.keys()) if (key === path || key.startsWith(`${path}/`)) dirs.delete(key);
  };

  const readLiveWriters = () => {
    for (const { agent, source } of o.sources) if (source.liveWriters) liveIds.set(agent, source.liveWriters.ids(o.env));
  };

  return {
    /** Everything from the roots down (the first scan, and the slow safety pass). */
    scanAll() {
      for (const { agent, source } of o.sources) {
        for (const root of source.roots(o.env)) walk(root, { agent, source, depthLeft: source.depth }, true);
      }
      readLiveWriters();
    },
    /** Only these directories (a watch named them); an unknown one is ignored. */
    scanDirs(paths: Iterable<string>) {
      for (const dir of paths) {
        const state = dirs.get(dir);
        if (state) listDir(dir, state, false);
      }
    },
    readLiveWriters,
    /** The directories to watch: every one walked, and where live writers are recorded. */
    watchedDirs(): string[] {
      const live = o.sources.flatMap(({ source }) => (source.liveWriters ? [source.liveWriters.dir(o.env)] : []));
      return [...dirs.keys(), ...live];
    },
    /** The index as it stands, less `exclude` (conversations tether ran); `now` for the live window. */
    entries(options: { now: number; exclude: Set<string> }): Map<string, OutsideEntry & { path: string }> {
      const out = new Map<string, OutsideEntry & { path: string }>();
      for (const [path, file] of files) {
        const head = file.head;
        if (!head || options.exclude.has(head.agentSessionId)) continue;
        const writer = liveIds.get(file.agent)?.get(head.agentSessionId);
        const live = writer !== undefined || options.now - file.mtimeMs < LIVE_WINDOW_MS;
        // A background session (claude --bg) is adopted live by its id; one in a terminal is not.
        const background = writer?.backgroundId ? { backgroundId: writer.backgroundId } : {};
        const entry = { agent: file.agent, ...head, lastActivity: Math.floor(file.mtimeMs), sizeBytes: file.size, live, ...background, path };
        const other = out.get(head.agentSessionId);
        // Two files naming one conversation (a copy): the one written last is it.
        if (!other || other.lastActivity < entry.lastActivity) out.set(head.agentSessionId, entry);
      }
      return out;
    },
    /** The newest write among files still inside the live window (a timer flips them). */
    liveUntil(now: number): number | null {
      let until: number | null = null;
      for (const file of files.values()) {
        const end = file.mtimeMs + LIVE_WINDOW_MS;
        if (end > now && (until === null || end < until)) until = end;
      }
      return until;
    },
  };
}
