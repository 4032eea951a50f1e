// deleted-bytes.test.ts: an attachment's bytes are gone from the hub's files once it is deleted as
// the product deletes it (the session ends; the composer's remove), not only from its queries: the
// database file (its free pages) and the WAL are scanned for a recognisable pattern while the hub
// runs on. Real hub on port 0, real SQLite, real sockets and fetch.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Attachment } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-deleted-bytes-' });
const { connect, ack, register } = live;

async function runnerWithSession(): Promise<{ runner: Socket; sessionId: string }> {
  const runner = await connect({ nsp: '/cli' });
  const sessionId = randomUUID();
  expect((await register(runner, { id: sessionId, launchKind: 'headless', status: 'idle' })).ok).toBe(true);
  return { runner, sessionId };
}

/** A text file of a pattern found nowhere else: big enough for overflow pages, under the cap. */
function secretFile(tag: string): { data: Uint8Array; marker: Buffer } {
  const marker = Buffer.from(`TETHER-SECRET-${tag}-`);
  return { data: new TextEncoder().encode(marker.toString().repeat(8000)), marker };
}

async function upload(sessionId: string, data: Uint8Array): Promise<Attachment> {
  const res = await fetch(`${live.hub.url}/api/sessions/${sessionId}/attachments?name=secret.txt`, { method: 'POST', headers: { authorization: `Bearer ${live.accessToken}` }, body: data as Uint8Array<ArrayBuffer> });
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
  const db = join(live.home, 'hub.sqlite');
  return { db: count(db), wal: count(`${db}-wal`) };
}

it("leaves no copy of a session's attachments in hub.sqlite or hub.sqlite-wal once the session ends", async () => {
  const { runner, sessionId } = await runnerWithSession();
  const { data, marker } = secretFile('END');
  await upload(sessionId, data);
  const before = copiesOnDisk(marker);
  expect(before.db + before.wal).toBeGreaterThan(0); // the pattern is findable while it is stored

  expect((await ack(runner, 'session:end', { sessionId, status: 'ended', exitCode: 0 })).ok).toBe(true);
  expect(copiesOnDisk(marker)).toEqual({ db: 0, wal: 0 });
});

it('leaves no copy of an attachment the composer removed', async () => {
  const { sessionId } = await runnerWithSession();
  const { data, marker } = secretFile('REMOVED');
  const attachment = await upload(sessionId, data);
  const removed = await fetch(`${live.hub.url}/api/sessions/${sessionId}/attachments/${attachment.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${live.accessToken}` } });
  expect(removed.status).toBe(200);
  expect(copiesOnDisk(marker)).toEqual({ db: 0, wal: 0 });
});
