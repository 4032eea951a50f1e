// deleted-bytes.test.ts: an attachment's bytes are gone from the hub's files once it is deleted as
// the product deletes it (the session ends; the composer's remove), not only from its queries: the
// database file (its free pages) and the WAL are scanned for a recognisable pattern while the hub
// runs on. Real hub on port 0, real SQLite, real sockets and fetch.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION, type Ack, type Attachment } from '@tether/shared';
import { createHub, type Hub } from '../main.ts';
import { createAccessToken } from '../auth/tokens.ts';

let home: string;
let hub: Hub;
let token: string;
const sockets: Socket[] = [];

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'tether-deleted-bytes-'));
  hub = await createHub({ config: { port: 0, home } });
  token = (await createAccessToken({ store: hub.store, namespace: 'alpha', label: 'phone' })).token;
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await hub.stop();
  rmSync(home, { recursive: true, force: true });
});

async function runnerWithSession(): Promise<{ runner: Socket; sessionId: string }> {
  const runner = io(`${hub.url}/cli`, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { protocol: PROTOCOL_VERSION.major, client: 'runner', token } });
  sockets.push(runner);
  await new Promise<void>((resolve, reject) => {
    runner.once('connect', resolve);
    runner.once('connect_error', reject);
  });
  const sessionId = randomUUID();
  const ack = (await runner.timeout(5000).emitWithAck('session:register', { id: sessionId, cwd: '/work', launchKind: 'headless', status: 'idle' })) as Ack;
  expect(ack.ok).toBe(true);
  return { runner, sessionId };
}

/** A text file of a pattern found nowhere else: big enough for overflow pages, under the cap. */
function secretFile(tag: string): { data: Uint8Array; marker: Buffer } {
  const marker = Buffer.from(`TETHER-SECRET-${tag}-`);
  return { data: new TextEncoder().encode(marker.toString().repeat(8000)), marker };
}

async function upload(sessionId: string, data: Uint8Array): Promise<Attachment> {
  const res = await fetch(`${hub.url}/api/sessions/${sessionId}/attachments?name=secret.txt`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: data as Uint8Array<ArrayBuffer> });
  expect(res.status).toBe(201);
  return ((await res.json()) as { attachment: Attachment }).attachment;
}

/** How many times the marker is in the database and in its WAL (a missing WAL holds none). */
function copiesOnDisk(marker: Buffer): { db: number; wal: number } {
  const count = (file: string) => {
    if (!existsSync(file)) return 0;
    const bytes = readFileSync(file);
    let n = 0;
    for (let at = bytes.indexOf(marker); at !== -1; at = bytes.indexOf(marker, at + marker.length)) n += 1;
    return n;
  };
  const db = join(home, 'hub.sqlite');
  return { db: count(db), wal: count(`${db}-wal`) };
}

it("leaves no copy of a session's attachments in hub.sqlite or hub.sqlite-wal once the session ends", async () => {
  const { runner, sessionId } = await runnerWithSession();
  const { data, marker } = secretFile('END');
  await upload(sessionId, data);
  const before = copiesOnDisk(marker);
  expect(before.db + before.wal).toBeGreaterThan(0); // the pattern is findable while it is stored

  const ended = (await runner.timeout(5000).emitWithAck('session:end', { sessionId, status: 'ended', exitCode: 0 })) as Ack;
  expect(ended.ok).toBe(true);
  expect(copiesOnDisk(marker)).toEqual({ db: 0, wal: 0 });
});

it('leaves no copy of an attachment the composer removed', async () => {
  const { sessionId } = await runnerWithSession();
  const { data, marker } = secretFile('REMOVED');
  const attachment = await upload(sessionId, data);
  const removed = await fetch(`${hub.url}/api/sessions/${sessionId}/attachments/${attachment.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  expect(removed.status).toBe(200);
  expect(copiesOnDisk(marker)).toEqual({ db: 0, wal: 0 });
});
