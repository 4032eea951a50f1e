// runner-present.ts: is a runner of this session connected, on this hub or another? Asked before a
// prompt is handed over (sessions/prompt-delivery.ts) and before a vanished runner's requests are
// withdrawn (approvals/runner-gone.ts). Unsure (a hub did not answer) counts as there: what follows
// a "there" is safe to repeat, what follows a "gone" is not.
import type { Namespace as IoNamespace } from 'socket.io';
import { runnerRoom, type Namespace } from '@tether/shared';

/** One NOTIFY round trip through the cluster adapter, or a hub that just died. */
const RUNNER_LOOKUP_TIMEOUT_MS = 3_000;

export async function runnerPresent(cli: IoNamespace, ns: Namespace, sessionId: string): Promise<boolean> {
  const room = runnerRoom(ns, sessionId);
  if ((cli.adapter.rooms.get(room)?.size ?? 0) > 0) return true;
  try {
    return (await cli.in(room).timeout(RUNNER_LOOKUP_TIMEOUT_MS).fetchSockets()).length > 0;
  } catch {
    return true;
  }
}
