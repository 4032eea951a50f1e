// pre-auth.bench.ts: what unauthenticated sockets can make a hub hold (issue 19, finding 1). A hub
// in its own process (load/hub-child.ts); SOCKETS raw WebSockets on 127.0.0.1 each open an engine.io
// session and, without ever authenticating, send a binary event's header announcing ATTACHMENTS + 1
// attachments and then ATTACHMENTS × 1 MiB of them (one short, so socket.io would wait for the last
// until its connect timeout). The hub's RSS (VmRSS) is read idle and then while every socket is
// still open.
//
//   goal: hub_preauth_rss_delta_mb ≤ 20 (the idle hub plus 20 MB)
//   env PREAUTH_SOCKETS (default 200), PREAUTH_ATTACHMENTS (default 9), SCALE_HUB_MAIN (A/B runs)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rssMb } from './load/proc.ts';

const SOCKETS = Number(process.env.PREAUTH_SOCKETS ?? '200');
const ATTACHMENTS = Number(process.env.PREAUTH_ATTACHMENTS ?? '9');
const MIB = 1024 * 1024;
/** Sockets attacking at once (the bench's own process holds their send buffers). */
const BATCH = 20;
const SETTLE_MS = 2_000;
const round = (n: number) => Math.round(n * 10) / 10;

type Attack = { closedByHub: boolean; attachmentsSent: number; ws: WebSocket };

async function drained(ws: WebSocket): Promise<void> {
  while (ws.readyState === WebSocket.OPEN && ws.bufferedAmount > 0) await Bun.sleep(5);
}

async function attack(url: string, attachment: Uint8Array): Promise<Attack> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`);
  ws.binaryType = 'arraybuffer';
  const result: Attack = { closedByHub: false, attachmentsSent: 0, ws };
  ws.addEventListener('close', () => {
    result.closedByHub = true;
  });
  // The engine's open packet ('0{…}') says the session is up.
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('message', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error('websocket error')), { once: true });
  });
  const placeholders = Array.from({ length: ATTACHMENTS + 1 }, (_, num) => ({ _placeholder: true, num }));
  ws.send(`45${ATTACHMENTS + 1}-${JSON.stringify(['terminal:output', ...placeholders])}`);
  for (let i = 0; i < ATTACHMENTS && ws.readyState === WebSocket.OPEN; i++) {
    ws.send(attachment);
    result.attachmentsSent++;
    await drained(ws);
  }
  return result;
}

export async function run(): Promise<Array<{ name: string; value: number; unit: string } & Record<string, unknown>>> {
  const home = mkdtempSync(join(tmpdir(), 'tether-preauth-'));
  const child = spawn(process.execPath, [join(import.meta.dir, 'load', 'hub-child.ts')], {
    env: { ...process.env, SCALE_HUB_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const attacks: Attack[] = [];
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const line = out.split('\n')[0];
        if (out.includes('\n') && line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once('exit', (code) => reject(new Error(`hub exited (${code})`)));
    });
    await Bun.sleep(SETTLE_MS);
    const idle = rssMb(child.pid!);
    const attachment = new Uint8Array(MIB).fill(0x61);
    for (let i = 0; i < SOCKETS; i += BATCH) {
      const batch = await Promise.all(Array.from({ length: Math.min(BATCH, SOCKETS - i) }, () => attack(url, attachment)));
      attacks.push(...batch);
    }
    // Everything sent; the sockets stay open (those the hub did not close). Peak over a short hold.
    let held = rssMb(child.pid!);
    for (let i = 0; i < 10; i++) {
      await Bun.sleep(300);
      held = Math.max(held, rssMb(child.pid!));
    }
    const closed = attacks.filter((a) => a.closedByHub).length;
    const sent = attacks.reduce((n, a) => n + a.attachmentsSent, 0);
    const base = { sockets: SOCKETS, attachments_each: ATTACHMENTS, closed_by_hub: closed, attachments_sent: sent, hub_main: process.env.SCALE_HUB_MAIN ?? 'this checkout' };
    return [
      { name: 'hub_idle_rss_mb', value: round(idle), unit: 'MB', ...base },
      { name: 'hub_preauth_rss_mb', value: round(held), unit: 'MB', ...base },
      { name: 'hub_preauth_rss_delta_mb', value: round(held - idle), unit: 'MB', goal: 20, ...base },
    ];
  } finally {
    for (const a of attacks) a.ws.close();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(home, { recursive: true, force: true });
  }
}
