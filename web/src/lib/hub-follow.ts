// hub-follow.ts: a view that keeps a list in step with the hub: `load` on start and on every
// (re)connect, and the hub's events for it as they come. Returns what stops following.
import type { WebServerToClient } from '@tether/shared';
import { getSocket } from './socket.ts';

export type HubListeners = { [E in keyof WebServerToClient]?: WebServerToClient[E] };

export function followHub(listeners: HubListeners, load: () => void): () => void {
  const socket = getSocket();
  if (!socket) return () => {};
  // The typed socket cannot pair a key with its listener through Object.entries.
  const loose = socket as unknown as { on(event: string, listener: (...args: never[]) => void): void; off(event: string, listener: (...args: never[]) => void): void };
  const entries = Object.entries(listeners) as Array<[string, (...args: never[]) => void]>;
  for (const [event, listener] of entries) loose.on(event, listener);
  socket.on('connect', load);
  if (socket.connected) load();
  return () => {
    for (const [event, listener] of entries) loose.off(event, listener);
    socket.off('connect', load);
  };
}
