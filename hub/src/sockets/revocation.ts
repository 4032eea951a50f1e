// revocation.ts: live sockets re-checked against their credential. `tether token revoke` runs in
// another process, so the hub cannot be told: every `everyMs` each socket's token (or share link)
// is checked again, and a revoked one is disconnected. One sweep at a time: a slow store must not
// stack sweeps up. A revoked share link is dropped at once (share-links.ts tells, on every hub), and
// so are tokens revoked through a hub (dropTokens: the tokens.revoked fact, on every hub).
import type { Namespace as IoNamespace } from 'socket.io';
import type { CallerResolver } from '../auth/namespace.ts';
import type { ShareLinks } from '../auth/share-links.ts';
import type { HubSocketData } from '../peers/peer.ts';

export function watchRevocations(options: {
  namespaces: IoNamespace[];
  resolver: CallerResolver;
  shareLinks?: ShareLinks;
  everyMs: number;
  onError: (what: string, error: unknown) => void;
}): () => void {
  const sweep = async () => {
    const now = Date.now();
    for (const nsp of options.namespaces) {
      for (const socket of [...nsp.sockets.values()]) {
        const data = socket.data as HubSocketData | undefined;
        if (data?.share) {
          if (!(await options.shareLinks?.stillValid({ jti: data.share.jti, namespace: data.caller.namespace, tokenId: data.share.tokenId }, now))) socket.disconnect(true);
        } else if (data?.caller && !(await options.resolver.stillValid(data.caller, now))) socket.disconnect(true);
      }
    }
  };
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((error: unknown) => options.onError('revocation sweep', error))
      .finally(() => {
        sweeping = false;
      });
  }, options.everyMs);
  sweeper.unref();
  return () => clearInterval(sweeper);
}

/** Disconnects every live connection of a share link (this hub's; the cluster tells the others). */
export function dropShareLink(web: IoNamespace, jti: string): void {
  for (const socket of web.sockets.values()) if ((socket.data as HubSocketData | undefined)?.share?.jti === jti) socket.disconnect(true);
}

/** Disconnects every live connection of these tokens (and of the share links they made) on this
 *  hub: revoked through the hub, they go at once, not at the next sweep. */
export function dropTokens(namespaces: IoNamespace[], tokenIds: ReadonlySet<string>): void {
  for (const nsp of namespaces) {
    for (const socket of [...nsp.sockets.values()]) {
      const data = socket.data as HubSocketData | undefined;
      if (!data?.caller) continue;
      const owner = data.share ? data.share.tokenId : data.caller.tokenId;
      if (owner !== null && tokenIds.has(owner)) socket.disconnect(true);
    }
  }
}
