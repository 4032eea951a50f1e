// load-minute.ts: a wait before `gemini --acp` loads a session, around a Gemini CLI bug (seen in
// 0.58.0 and 0.61.0). Its session/load sets up the session's config first, which starts a chat
// recording of its own for the id, in a file named for the current minute:
// `session-<YYYY-MM-DDTHH-MM>-<id8>.jsonl`. In the minute the session's own file is named for, that
// is the same file, and the recording's opening record (`$set` messages: only its context) wipes the
// history: the load fails with "No previous sessions found for this project." (and a later one too).
// From the next minute on, the recording gets a file of its own and the load finds the session's.
// So in that minute the session's file is renamed to the minute before (Gemini finds a session by its
// id's `-<id8>.jsonl` suffix and the id in the header, never by the minute): the load then meets the
// "next minute" case at once. Only when that rename cannot be made does the load wait for the next
// minute (a wait of up to a minute outlasted the hub's 45 s bound for a session to get ready).
import { existsSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const NAME_MINUTE = /^session-(\d{4}-\d\d-\d\dT\d\d-\d\d)-/;
/** Past the minute's turn, so Gemini's clock reads the next minute too. */
const MARGIN_MS = 1_000;

/** The minute Gemini names a recording started at `now` for (UTC, as its toISOString gives). */
export function recordingMinute(now: number): string {
  return new Date(now).toISOString().slice(0, 16).replace(/:/g, '-');
}

/** How long to wait before loading the session whose file is `path` (0: load now). */
export function loadWaitMs(o: { path: string; now: number }): number {
  const named = NAME_MINUTE.exec(basename(o.path))?.[1];
  if (!named || named !== recordingMinute(o.now)) return 0;
  return 60_000 - (o.now % 60_000) + MARGIN_MS;
}

/** The session file's name for the minute before the one it names, or null when it names none. */
export function previousMinuteName(path: string): string | null {
  const named = NAME_MINUTE.exec(basename(path))?.[1];
  if (!named) return null;
  const at = Date.parse(`${named.slice(0, 13)}:${named.slice(14)}:00Z`);
  if (Number.isNaN(at)) return null;
  return basename(path).replace(named, recordingMinute(at - 60_000));
}

/** In the minute the session's file names, renames it to the minute before, so a load now keeps its
 *  history; the new name, or null when no rename was needed or it could not be made. */
export function renameOutOfLoadMinute(o: { path: string; now: number }): string | null {
  if (loadWaitMs({ path: o.path, now: o.now }) === 0) return null;
  const renamed = previousMinuteName(o.path);
  if (!renamed || existsSync(join(dirname(o.path), renamed))) return null;
  try {
    renameSync(o.path, join(dirname(o.path), renamed));
    return renamed;
  } catch {
    return null;
  }
}

export async function waitOutLoadMinute(o: { path: string | null; log: (line: string) => void; now?: () => number; sleep?: (ms: number) => Promise<void> }): Promise<void> {
  if (!o.path) return;
  const wait = loadWaitMs({ path: o.path, now: (o.now ?? Date.now)() });
  if (wait === 0) return;
  const renamed = previousMinuteName(o.path);
  if (renamed && !existsSync(join(dirname(o.path), renamed))) {
    try {
      renameSync(o.path, join(dirname(o.path), renamed));
      o.log(`gemini: the session's file now names the minute before (${renamed}), so loading it in the minute it started keeps its history (load-minute.ts)`);
      return;
    } catch (error) {
      o.log(`gemini: renaming the session's file failed (${error instanceof Error ? error.message : String(error)}); waiting for the next minute instead`);
    }
  }
  o.log(`gemini: waiting ${Math.round(wait / 1000)} s for the next minute before loading the session (Gemini would overwrite a session loaded in the minute it started: load-minute.ts)`);
  await (o.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))))(wait);
}
