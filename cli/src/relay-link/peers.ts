// peers.ts: the loopback addresses the relay front dials the hub from, one per live relayed
// connection, and the real client address behind each. The hub asks `lookup` (HubConfig.peerAddress)
// for every request and socket, so its login limits and audit lines see the phone, not 127.0.0.1,
// without believing any header a client could write.
//
// 127.77.0.0/16 is loopback on Linux without any setup (all of 127/8 is). Another local process
// could bind these addresses too, but a local process can already reach the hub from loopback.

const PREFIX = '127.77';
const SIZE = 256 * 256 - 2;

export type Peers = {
  /** A free loopback source for a new connection, remembered as `client`'s; null when all are taken. */
  take(client: string): string | null;
  release(source: string): void;
  /** HubConfig.peerAddress. */
  lookup(address: string): string | null;
  size(): number;
};

export function createPeers(): Peers {
  const live = new Map<string, string>();
  let next = 0;
  return {
    take(client) {
      for (let tried = 0; tried < SIZE; tried++) {
        const n = (next++ % SIZE) + 1;
        const source = `${PREFIX}.${n >> 8}.${n & 255}`;
        if (!live.has(source)) {
          live.set(source, client);
          return source;
        }
      }
      return null;
    },
    release(source) {
      live.delete(source);
    },
    lookup(address) {
      return live.get(address.startsWith('::ffff:') ? address.slice(7) : address) ?? null;
    },
    size: () => live.size,
  };
}
