// lifecycle-store.ts: the phone's End and Resume of a session, as one small store per tab: the
// request in flight and the last failure, by session id. The header's button and the chat's end
// notice both read it, so whichever the person tapped, both show "Ending…"/"Resuming…" and the
// error; and it outlives the notice, which unmounts as soon as the resumed session is live.
//
//   resume ─session:resume {sessionId, launchKind?}─► hub ─► the machine's daemon ─► ack once ready
//   end    ─session:stop {sessionId, reviews?}─► hub ─► runner (claude's own exit) ─► ack once ended
import { useSyncExternalStore } from 'react';
import type { LaunchKind, LiveReviewsChoice, Session } from '@tether/shared';
import { SPAWN_ACK_TIMEOUT_MS, STOP_ACK_TIMEOUT_MS } from '@tether/shared/limits';
import { requestHub } from '../../lib/socket.ts';


export type LifecycleState =
  | { kind: 'idle' }
  | { kind: 'resuming'; launchKind: LaunchKind }
  | { kind: 'ending' }
  | { kind: 'failed'; action: 'resume' | 'end'; message: string };

const IDLE: LifecycleState = { kind: 'idle' };
const states = new Map<string, LifecycleState>();
const listeners = new Set<() => void>();

function set(sessionId: string, state: LifecycleState): void {
  if (state.kind === 'idle') states.delete(sessionId);
  else states.set(sessionId, state);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLifecycle(sessionId: string): LifecycleState {
  return useSyncExternalStore(subscribe, () => states.get(sessionId) ?? IDLE);
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Resume on the session's machine; `launchKind` overrides how it ran (a headless one in a PTY). */
export async function resumeSession(session: Pick<Session, 'id' | 'launchKind'>, launchKind: LaunchKind = session.launchKind): Promise<boolean> {
  const current = states.get(session.id);
  if (current?.kind === 'resuming' || current?.kind === 'ending') return false;
  set(session.id, { kind: 'resuming', launchKind });
  try {
    await requestHub('session:resume', launchKind === session.launchKind ? { sessionId: session.id } : { sessionId: session.id, launchKind }, { timeoutMs: SPAWN_ACK_TIMEOUT_MS });
    set(session.id, IDLE);
    return true;
  } catch (error) {
    set(session.id, { kind: 'failed', action: 'resume', message: message(error) });
    return false;
  }
}

/** End the session: claude exits as at the desk; the hub acks once the session has ended.
 *  `reviews`: what becomes of its live reviews (the hub refuses without it while some run). */
/** `stopInPool`: an adopted session is stopped in its agent's pool, not only detached (a person
 *  confirmed it: end-dialog.tsx). */
export async function endSession(session: Pick<Session, 'id'>, reviews?: LiveReviewsChoice, options: { stopInPool?: boolean } = {}): Promise<boolean> {
  const current = states.get(session.id);
  if (current?.kind === 'resuming' || current?.kind === 'ending') return false;
  set(session.id, { kind: 'ending' });
  try {
    await requestHub('session:stop', { sessionId: session.id, ...(reviews ? { reviews } : {}), ...(options.stopInPool ? { stopInPool: true } : {}) }, { timeoutMs: STOP_ACK_TIMEOUT_MS });
    set(session.id, IDLE);
    return true;
  } catch (error) {
    set(session.id, { kind: 'failed', action: 'end', message: message(error) });
    return false;
  }
}

/** Forget a failure once the person has read it (a new attempt also replaces it). */
export function dismissFailure(sessionId: string): void {
  if (states.get(sessionId)?.kind === 'failed') set(sessionId, IDLE);
}
