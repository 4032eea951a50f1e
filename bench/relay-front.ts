// relay-front.ts (bench child): the hub side of a relay tunnel in a process of its own, as in a real
// hub (cli/src/relay-link/link.ts runs it inside the hub): the front ending TLS with the bench's
// certificate, and ssh -R to the relay. Reads one JSON line on stdin, prints "up <front port>" once
// the tunnel is up, and runs until stdin closes.
import { startFront } from '../cli/src/relay-link/front.ts';
import { createPeers } from '../cli/src/relay-link/peers.ts';
import { keepTunnel } from '../cli/src/relay-link/tunnel.ts';
import type { Join } from '../cli/src/relay/join-code.ts';

type Setup = { hubPort: number; join: Join; dir: string; pem: { key: string; cert: string } };

const reader = Bun.stdin.stream().getReader();
let text = '';
while (!text.includes('\n')) {
  const { value, done } = await reader.read();
  if (done) process.exit(1);
  text += new TextDecoder().decode(value);
}
const setup = JSON.parse(text.slice(0, text.indexOf('\n'))) as Setup;
// The stand-in hub serves any name: no request-target is refused.
const front = await startFront({ hub: { host: '127.0.0.1', port: setup.hubPort, checkTarget: () => null }, peers: createPeers(), name: setup.join.name, hop: setup.join.hop, log: () => {} });
front.setCertificate(setup.pem);
const tunnel = keepTunnel({
  join: setup.join,
  dir: setup.dir,
  frontPort: front.port,
  onState: (s) => {
    if (s.kind === 'up') process.stdout.write(`up ${front.port}\n`);
    if (s.kind === 'down') process.stderr.write(`tunnel down: ${s.reason}\n`);
  },
});
for (;;) {
  const { done } = await reader.read();
  if (done) break;
}
await tunnel.close();
await front.close();
process.exit(0);
