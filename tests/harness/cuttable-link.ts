// cuttable-link.ts (harness): a TCP relay on 127.0.0.1 between a client and a hub that a test can
// cut (every connection through it closed, new ones refused at once) and mend. A runner dialling
// the hub through it goes offline while its agent and the hub both live on: the hub sees the
// disconnect at once (a FIN, not a ping timeout), and the runner reconnects when it is mended.
//
//   runner ─► 127.0.0.1:<free> ─(open?)─► hub
import { createConnection, createServer, type Socket } from 'node:net';

export type CuttableLink = {
  /** The hub's URL through the link. */
  url: string;
  cut(): void;
  mend(): void;
  stop(): Promise<void>;
};

export async function startCuttableLink(hubUrl: string): Promise<CuttableLink> {
  const target = new URL(hubUrl);
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      open.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => (open.delete(a), b.destroy()));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the link has no port');
  const cutAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };
  return {
    url: `${target.protocol}//127.0.0.1:${address.port}`,
    cut: () => ((cut = true), cutAll()),
    mend: () => void (cut = false),
    stop: () => new Promise<void>((resolve) => (cutAll(), server.close(() => resolve()))),
  };
}
