// status-file.ts: claude's own machine-readable state, `<config>/sessions/<pid>.json`
// (`status: idle|busy|waiting`, CLAUDE-CODE.md §5), polled because it is rewritten in place.
// The file is keyed by the pid of the claude process; when claude runs behind a wrapper the pid
// differs, so a file whose sessionId matches claude's session id is accepted too.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { steadyPoll, type Poll } from '../../pace/pace.ts';
import { isAlive } from '../alive.ts';

export type ClaudeStatus = 'idle' | 'busy' | 'waiting';

/** Poll interval: one small file read per tick. Hooks (Stop, UserPromptSubmit) report most turn
 *  boundaries at once; this file is what notices the rest (Esc ends a turn with no Stop hook). */
const STATUS_POLL_MS = 500;

export type ClaudeStatusWatch = { current(): ClaudeStatus | null; stop(): void };

export function watchClaudeStatus(options: {
  configDir: string;
  pid: number;
  claudeSessionId: () => string | null;
  /** `writtenAt`: the file's modification time (ms), null when it could not be read. */
  onChange: (status: ClaudeStatus | null, writtenAt: number | null) => void;
  /** How the poll is timed (the runner's pace slows it while the session is quiet). */
  poll?: Poll;
}): ClaudeStatusWatch {
  const dir = join(options.configDir, 'sessions');
  let current: ClaudeStatus | null = null;
  let fileName: string | null = null;

  const readStatus = (name: string): { sessionId?: string; status?: string } | null => {
    try {
      return JSON.parse(readFileSync(join(dir, name), 'utf8')) as { sessionId?: string; status?: string };
    } catch {
      return null;
    }
  };

  const writtenAt = (name: string): number | null => {
    try {
      return statSync(join(dir, name)).mtimeMs;
    } catch {
      return null;
    }
  };

  const tick = () => {
    let record = readStatus(fileName ?? `${options.pid}.json`);
    if (!record) {
      const wanted = options.claudeSessionId();
      if (wanted) {
        try {
          for (const name of readdirSync(dir)) {
            const candidate = name.endsWith('.json') ? readStatus(name) : null;
            if (candidate?.sessionId === wanted) {
              fileName = name;
              record = candidate;
              break;
            }
          }
        } catch {
          // sessions/ not there yet
        }
      }
    }
    const status = record && ['idle', 'busy', 'waiting'].includes(String(record.status)) ? (record.status as ClaudeStatus) : null;
    if (status !== current) {
      current = status;
      options.onChange(status, status ? writtenAt(fileName ?? `${options.pid}.json`) : null);
    }
  };
  const stopPoll = (options.poll ?? steadyPoll)({ everyMs: STATUS_POLL_MS, tick });
  tick();
  return {
    current: () => current,
    stop: stopPoll,
  };
}

/** The pid of a live claude whose status file names `claudeSessionId`, or null. */
export function liveClaudeOwner(options: { configDir: string; claudeSessionId: string }): number | null {
  return liveClaudeSessions(options.configDir).get(options.claudeSessionId) ?? null;
}

/** What a live claude's status file says about its session: its pid, and for a background session
 *  (`kind: "bg"`, claude 2.1.332) the id its verbs take (`jobId`: attach, stop). */
export type LiveClaude = { pid: number; backgroundId: string | null };

/** Each claude session a live claude's status file names. */
export function liveClaudeWriters(configDir: string): Map<string, LiveClaude> {
  const dir = join(configDir, 'sessions');
  const live = new Map<string, LiveClaude>();
  if (!existsSync(dir)) return live;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const record = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { pid?: number; sessionId?: string; kind?: string; jobId?: string };
      const pid = typeof record.pid === 'number' ? record.pid : Number.parseInt(name, 10);
      if (typeof record.sessionId !== 'string' || !Number.isInteger(pid) || !isAlive(pid)) continue;
      const background = record.kind === 'bg' && typeof record.jobId === 'string' && /^[0-9a-f]{8}$/.test(record.jobId);
      live.set(record.sessionId, { pid, backgroundId: background ? record.jobId! : null });
    } catch {
      // being rewritten; a live owner rewrites it again soon
    }
  }
  return live;
}

/** Each claude session a live claude's status file names, with that claude's pid. */
export function liveClaudeSessions(configDir: string): Map<string, number> {
  return new Map([...liveClaudeWriters(configDir)].map(([id, { pid }]) => [id, pid]));
}
