// attachments.test.ts: files for prompts against a real hub on port 0 (real SQLite, real sockets,
// real fetch): upload with a type check by bytes and a size cap, a prompt that names them, the
// runner's delivery and its fetch of the bytes, another namespace refused everywhere, the caps, and
// everything gone when the session ends. Also the slash commands a runner reports.
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { ATTACHMENT_MAX_BYTES, type Attachment, type AttachmentRef } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';
import { createAttachments } from './attachments.ts';

/** A 1×1 PNG, as a phone's screenshot starts. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n');
const ELF = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]);

const live = hubUnderTest({ home: 'tether-attachments-' });
const { connect, ack, register } = live;
let otherToken: string;
beforeEach(async () => {
  otherToken = await live.token('beta', { label: 'stranger' });
});

async function upload(sessionId: string, data: Uint8Array, options: { name?: string; as?: string; type?: string } = {}) {
  const query = options.name === undefined ? '?name=shot.png' : options.name === '' ? '' : `?name=${encodeURIComponent(options.name)}`;
  return fetch(`${live.hub.url}/api/sessions/${sessionId}/attachments${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.as ?? live.accessToken}`, 'content-type': options.type ?? 'application/octet-stream' },
    body: data as Uint8Array<ArrayBuffer>,
  });
}
const read = (sessionId: string, id: string, as = live.accessToken) => fetch(`${live.hub.url}/api/sessions/${sessionId}/attachments/${id}`, { headers: { authorization: `Bearer ${as}` } });

async function liveSession(as?: string): Promise<{ runner: Socket; sessionId: string }> {
  const runner = await connect({ nsp: '/cli', token: as });
  const sessionId = randomUUID();
  expect((await register(runner, { id: sessionId, launchKind: 'headless', status: 'idle' })).ok).toBe(true);
  return { runner, sessionId };
}

describe('attachments', () => {
  it('stores an upload by the type its bytes say, and gives the bytes back to the namespace only', async () => {
    const { sessionId } = await liveSession();
    // The name and the claimed Content-Type lie; the bytes decide.
    const res = await upload(sessionId, PNG, { name: 'C:\\Users\\me\\notes.txt', type: 'text/html' });
    expect(res.status).toBe(201);
    const { attachment } = (await res.json()) as { attachment: Attachment };
    expect(attachment).toMatchObject({ sessionId, name: 'notes.txt', mediaType: 'image/png', size: PNG.length });

    const back = await read(sessionId, attachment.id);
    expect(back.status).toBe(200);
    expect(back.headers.get('content-type')).toBe('image/png');
    expect(back.headers.get('x-content-type-options')).toBe('nosniff');
    expect(back.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''notes.txt");
    expect(new Uint8Array(await back.arrayBuffer())).toEqual(PNG);

    for (const [data, type] of [[JPEG, 'image/jpeg'], [PDF, 'application/pdf'], [new TextEncoder().encode('plain notes\n– with UTF-8'), 'text/plain']] as const) {
      const more = await upload(sessionId, data, { name: 'x' });
      expect(((await more.json()) as { attachment: Attachment }).attachment.mediaType).toBe(type);
    }

    // Another namespace: the same 404 as a missing attachment, for read, upload and delete.
    const missing = await read(sessionId, randomUUID());
    const foreign = await read(sessionId, attachment.id, otherToken);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(await missing.json());
    expect((await upload(sessionId, PNG, { as: otherToken })).status).toBe(404);
    const foreignDelete = await fetch(`${live.hub.url}/api/sessions/${sessionId}/attachments/${attachment.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${otherToken}` } });
    expect(foreignDelete.status).toBe(404);
    expect((await read(sessionId, attachment.id)).status).toBe(200);
    // Its own namespace may remove it (the composer's remove).
    const removed = await fetch(`${live.hub.url}/api/sessions/${sessionId}/attachments/${attachment.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${live.accessToken}` } });
    expect(removed.status).toBe(200);
    expect((await read(sessionId, attachment.id)).status).toBe(404);
  });

  it('keeps no bidi override or invisible character in a name, and names it in Content-Disposition with only RFC 5987 characters', async () => {
    const { sessionId } = await liveSession();
    // U+202E shows "invoice\u202Egnp.exe" as "invoiceexe.png" in the composer, the chat and a
    // download; a C1 control and a zero-width space hide in it too.
    const res = await upload(sessionId, PNG, { name: "it's (1)*\u0085 invoice\u200b\u202Egnp.exe" });
    expect(res.status).toBe(201);
    const { attachment } = (await res.json()) as { attachment: Attachment };
    expect(attachment.name).toBe("it's (1)* invoicegnp.exe");
    const back = await read(sessionId, attachment.id);
    expect(back.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''it%27s%20%281%29%2A%20invoicegnp.exe");
    // Nothing outside RFC 5987's attr-char and %XX in the value.
    expect(back.headers.get('content-disposition')!.split("''")[1]).toMatch(/^(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+$/);
    // The same name reaches the runner with the prompt.
    const runnerRef = await live.hub.store.findAttachments({ namespace: 'alpha', sessionId, ids: [attachment.id] });
    expect(runnerRef[0]?.name).toBe("it's (1)* invoicegnp.exe");
  });

  it('refuses what is not an allowed type, empty, nameless, over the size cap, or for an ended session, with clear errors', async () => {
    const { runner, sessionId } = await liveSession();
    const refused = async (res: Response) => ({ status: res.status, body: (await res.json()) as { code: string; error: string } });

    expect(await refused(await upload(sessionId, ELF, { name: 'a.png' }))).toEqual({
      status: 400,
      body: { code: 'bad_request', error: 'not a PNG, JPEG, GIF or WebP image, a PDF or a plain-text (UTF-8) file' },
    });
    expect(await refused(await upload(sessionId, new Uint8Array(0)))).toEqual({ status: 400, body: { code: 'bad_request', error: 'the file is empty' } });
    expect((await refused(await upload(sessionId, PNG, { name: '' }))).status).toBe(400);
    expect((await refused(await upload(sessionId, PNG, { name: '///' }))).body.error).toContain('attachment name is empty');

    // Over the cap: refused before the route reads it, whether the length is declared or streamed.
    const big = new Uint8Array(ATTACHMENT_MAX_BYTES + 1);
    big.set(PNG);
    expect(await refused(await upload(sessionId, big))).toEqual({ status: 413, body: { code: 'too_large', error: 'the file is over 5 MiB' } });
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(big.subarray(0, ATTACHMENT_MAX_BYTES / 2));
        controller.enqueue(big.subarray(ATTACHMENT_MAX_BYTES / 2));
        controller.close();
      },
    });
    const chunked = await fetch(`${live.hub.url}/api/sessions/${sessionId}/attachments?name=big.png`, { method: 'POST', headers: { authorization: `Bearer ${live.accessToken}` }, body: streamed, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    // Exactly at the cap is fine.
    expect((await upload(sessionId, big.subarray(0, ATTACHMENT_MAX_BYTES))).status).toBe(201);
    // Every other API route keeps its 1 MiB limit.
    const push = await fetch(`${live.hub.url}/api/sessions/${sessionId}/share`, { method: 'POST', headers: { authorization: `Bearer ${live.accessToken}` }, body: 'x'.repeat(1024 * 1024 + 1) });
    expect(push.status).toBe(413);

    expect((await ack(runner, 'session:end', { sessionId, status: 'ended', exitCode: 0 })).ok).toBe(true);
    expect(await refused(await upload(sessionId, PNG))).toEqual({ status: 410, body: { code: 'gone', error: 'session has ended' } });
  });

  it('keeps the per-session and per-namespace caps', async () => {
    const { sessionId } = await liveSession();
    const { sessionId: second } = await liveSession();
    const attachments = createAttachments({ store: live.hub.store, caps: { perSession: 2, sessionBytes: PNG.length * 3, namespaceBytes: PNG.length * 3 } });
    expect((await attachments.upload('alpha', { sessionId, name: 'a.png', data: PNG })).ok).toBe(true);
    expect((await attachments.upload('alpha', { sessionId, name: 'b.png', data: PNG })).ok).toBe(true);
    expect(await attachments.upload('alpha', { sessionId, name: 'c.png', data: PNG })).toEqual({
      ok: false,
      code: 'too_large',
      error: 'this session already holds 50 attachments; they are cleared when the session ends',
    });
    expect((await attachments.upload('alpha', { sessionId: second, name: 'c.png', data: PNG })).ok).toBe(true);
    const over = await attachments.upload('alpha', { sessionId: second, name: 'd.png', data: PNG });
    expect(over).toMatchObject({ ok: false, code: 'too_large' });
    expect(!over.ok && over.error).toContain('end a session to free its attachments');
  });

});

describe('attachments: delivered with a prompt', () => {
  it('delivers a prompt with its attachments to the runner, refuses another session\'s, and deletes them when the session ends', async () => {
    const { runner, sessionId } = await liveSession();
    const { sessionId: otherSession } = await liveSession();
    const { sessionId: foreignSession } = await liveSession(otherToken);
    const web = await connect({ nsp: '/web' });
    const stored = (await (await upload(sessionId, PNG, { name: 'screen.png' })).json()) as { attachment: Attachment };
    const elsewhere = (await (await upload(otherSession, PNG)).json()) as { attachment: Attachment };
    const foreign = (await (await upload(foreignSession, PNG, { as: otherToken })).json()) as { attachment: Attachment };

    // Only this session's uploads; another session's or namespace's id reads as unknown.
    for (const id of [elsewhere.attachment.id, foreign.attachment.id, randomUUID()]) {
      expect(await ack(web, 'prompt:send', { sessionId, promptId: randomUUID(), text: 'look', attachments: [id] })).toEqual({
        ok: false,
        code: 'bad_request',
        error: `no such attachment in this session: ${id} (upload it first)`,
      });
    }
    expect(await ack(web, 'prompt:send', { sessionId, promptId: randomUUID(), text: '  ' })).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('a prompt needs text or an attachment') });

    const delivered = new Promise<{ promptId: string; text: string; attachments: AttachmentRef[] }>((resolve) => runner.once('prompt:deliver', resolve));
    const promptId = randomUUID();
    const sent = await ack(web, 'prompt:send', { sessionId, promptId, text: '', attachments: [stored.attachment.id] });
    expect(sent).toMatchObject({ ok: true, prompt: { id: promptId, text: '', attachments: [{ id: stored.attachment.id, name: 'screen.png', mediaType: 'image/png', size: PNG.length }] } });
    expect(await delivered).toMatchObject({ promptId, text: '', attachments: [{ id: stored.attachment.id, name: 'screen.png', mediaType: 'image/png' }] });
    // The runner reads the bytes with its own access token.
    expect(new Uint8Array(await (await read(sessionId, stored.attachment.id)).arrayBuffer())).toEqual(PNG);

    expect((await ack(runner, 'session:end', { sessionId, status: 'ended', exitCode: 0 })).ok).toBe(true);
    expect((await read(sessionId, stored.attachment.id)).status).toBe(404);
    expect((await read(otherSession, elsewhere.attachment.id)).status).toBe(200);
  });
});

describe('slash commands', () => {
  it('keeps the list a runner reports for its namespace, and answers another namespace 404', async () => {
    const { runner, sessionId } = await liveSession();
    const get = (as = live.accessToken) => fetch(`${live.hub.url}/api/sessions/${sessionId}/commands`, { headers: { authorization: `Bearer ${as}` } });
    expect(await (await get()).json()).toEqual({ commands: [], reportedAt: null });
    const review = { name: 'review-pr', description: 'Review a pull request', argumentHint: '<number>', source: 'project' };
    expect((await ack(runner, 'session:commands', { sessionId, commands: [review, { name: 'model', source: 'builtin', opensPicker: true }] })).ok).toBe(true);
    const body = (await (await get()).json()) as { commands: unknown[]; reportedAt: number };
    expect(body.commands).toEqual([
      { ...review, opensPicker: false },
      { name: 'model', description: '', argumentHint: '', source: 'builtin', opensPicker: true },
    ]);
    expect(body.reportedAt).toBeGreaterThan(0);
    expect((await ack(runner, 'session:commands', { sessionId, commands: [{ name: '/bad name', source: 'user' }] })).ok).toBe(false);
    expect((await get(otherToken)).status).toBe(404);
    const stranger = await connect({ nsp: '/cli', token: otherToken });
    expect(await ack(stranger, 'session:commands', { sessionId, commands: [] })).toMatchObject({ ok: false, code: 'not_found' });
  });
});
