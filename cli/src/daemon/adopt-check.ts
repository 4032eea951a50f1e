// adopt-check.ts: before a found conversation is continued under tether (daemon:spawn { adopting }),
// the daemon looks at it once more as it is on disk now: it must be there, of that agent and folder,
// written by no live process (claude's status file names a live pid, or it grew within the live
// window), no larger than tether continues, and every line of its record must be JSON (the runner
// rebuilds the chat from it). Any of these refuses the spawn with nothing started: nothing is ever
// half-adopted, and nothing is killed.
import { closeSync, openSync, readSync } from 'node:fs';
import { OUTSIDE_ADOPT_MAX_BYTES, spawnError, type Ack, type DaemonSpawn } from '@tether/shared';
import type { Agent } from '../agents/agent.ts';
import type { FoundConversation } from './outside.ts';

const CHUNK = 1024 * 1024;

/** The 1-based number of the first line that is not JSON (a last line cut short is a write in
 *  progress, not damage), or null. */
export function firstBadLine(path: string): number | null {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK);
    let carry = '';
    let line = 0;
    let position = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK, position);
      if (read === 0) break;
      position += read;
      const parts = (carry + buffer.subarray(0, read).toString('utf8')).split('\n');
      carry = parts.pop() ?? '';
      for (const text of parts) {
        line++;
        if (text.trim() && !parsesAsJson(text)) return line;
      }
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const MB = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Why this adopt cannot go ahead, or null. */
export function adoptRefusal(o: { request: DaemonSpawn; found: FoundConversation | null; agent: Agent; env: NodeJS.ProcessEnv }): Ack<never> | null {
  const { request, found, agent } = o;
  const id = request.resumeAgentSessionId;
  if (!id || !found || found.agent !== request.agent) return spawnError('not_found', 'not_resumable', `no ${agent.name} conversation ${id ?? ''} on this machine (gone since it was listed?)`);
  if (found.folder !== request.cwd) return spawnError('bad_request', 'not_resumable', `that conversation ran in ${found.folder}, not ${request.cwd}`);
  // A fork leaves the conversation as it is: one still written may be forked.
  const owner = request.fork ? null : (agent.liveOwner?.({ env: o.env, sessionId: id }) ?? null);
  if (!request.fork && (owner !== null || found.live)) {
    const who = owner !== null ? `a live ${agent.name} (pid ${owner})` : `a live process (it was written ${Math.max(0, Math.round((Date.now() - found.lastActivity) / 1000))} s ago)`;
    return spawnError('conflict', 'session_live', `${who} still writes this conversation: it cannot be shared while it runs; continue it here once it has ended`);
  }
  if (found.sizeBytes > OUTSIDE_ADOPT_MAX_BYTES) {
    return spawnError('bad_request', 'not_resumable', `this conversation's record is ${MB(found.sizeBytes)}, over the ${MB(OUTSIDE_ADOPT_MAX_BYTES)} tether continues`);
  }
  let bad: number | null;
  try {
    bad = firstBadLine(found.path);
  } catch (error) {
    return spawnError('internal', 'not_resumable', `could not read this conversation's record: ${(error as Error).message}`);
  }
  if (bad !== null) return spawnError('bad_request', 'not_resumable', `line ${bad} of this conversation's record (${found.path}) is not JSON: it cannot be continued as it is`);
  return null;
}
