// orphans.ts: delivers outboxes whose runner is gone (it exited while the hub was down, or was
// killed). Each orphan is replayed with its own link: registered with the last registration it
// stored, then its entries in order. A runner that died without a session:end (SIGKILL, crash) gets
// one: its session is marked failed with that reason, so no session stays "thinking" forever.
// Invariant: an outbox whose owner pid is alive is never touched; an outbox is deleted only empty.
import { existsSync, readdirSync } from 'node:fs';
import { isUuid, type SessionRegistration } from '@tether/shared';
import { connectHubLink } from './link.ts';
import { openOutbox, outboxOwnerAlive } from './outbox.ts';

/** Per orphan: how long we try before leaving it for the next runner. */
const ORPHAN_DRAIN_MS = 10_000;

export async function deliverOrphanOutboxes(options: {
  dir: string;
  hubUrl: string;
  token: string;
  /** Never touch this one (the caller's own session). */
  exceptSessionId?: string;
  onProblem?: (message: string) => void;
  /** Stop early (the caller is exiting); what is left stays on disk. */
  signal?: AbortSignal;
}): Promise<{ delivered: string[] }> {
  if (!existsSync(options.dir)) return { delivered: [] };
  const delivered: string[] = [];
  const ids = readdirSync(options.dir)
    .filter((name) => name.endsWith('.sqlite'))
    .map((name) => name.slice(0, -'.sqlite'.length))
    .filter((id) => isUuid(id) && id !== options.exceptSessionId);
  for (const sessionId of ids) {
    if (options.signal?.aborted) break;
    if (outboxOwnerAlive({ dir: options.dir, sessionId })) continue;
    const outbox = openOutbox({ dir: options.dir, sessionId });
    const stored = outbox.getMeta('registration');
    if (!stored) {
      // Never registered anywhere: nothing on the hub to attach it to.
      outbox.destroy();
      continue;
    }
    const registration = JSON.parse(stored) as SessionRegistration;
    if (!outbox.hasEnd()) {
      outbox.push('session:end', { sessionId, status: 'failed', exitCode: null, reason: 'the tether runner stopped without ending the session' });
    }
    const link = connectHubLink({ hubUrl: options.hubUrl, token: options.token, sessionId, outbox, registration: () => registration, commands: {}, onProblem: options.onProblem });
    const onAbort = () => link.stop();
    options.signal?.addEventListener('abort', onAbort);
    const drained = await link.drain(ORPHAN_DRAIN_MS);
    options.signal?.removeEventListener('abort', onAbort);
    link.stop();
    if (drained && outbox.size() === 0) {
      outbox.destroy();
      delivered.push(sessionId);
    } else {
      outbox.close();
    }
  }
  return { delivered };
}
