// attachments.test.ts: how a prompt's files reach claude: the names and the `@path` prompt of a PTY
// session, the content blocks of a headless one, and the inbox against a real local HTTP server
// playing the hub (order kept, a failed fetch drops the prompt with its reason, files 0600).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentRef } from '@tether/shared';
import { createAttachmentInbox, headlessContent, ptyPromptText, safeFileName } from './attachments.ts';

const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
const SESSION = '11111111-1111-4111-8111-111111111111';
const ref = (id: string, name: string, mediaType: AttachmentRef['mediaType'] = 'image/png', size = PNG.length): AttachmentRef => ({ id, name, mediaType, size });

let root: string;
let server: ReturnType<typeof Bun.serve>;
const served = new Map<string, Uint8Array>();
const requests: string[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tether-inbox-'));
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url);
      requests.push(`${req.headers.get('authorization')} ${url.pathname}`);
      const id = url.pathname.split('/').at(-1)!;
      // The first file answers slowly: a later prompt must still wait for it.
      if (id === 'slow') await new Promise((resolve) => setTimeout(resolve, 200));
      const data = served.get(id);
      return data ? new Response(data as Uint8Array<ArrayBuffer>) : Response.json({ code: 'not_found', error: 'no such attachment' }, { status: 404 });
    },
  });
});
afterEach(async () => {
  await server.stop(true);
  served.clear();
  requests.splice(0);
  rmSync(root, { recursive: true, force: true });
});

describe('attachments to the agent', () => {
  it('names files so that `@path` needs no quoting and claude knows their kind', () => {
    expect(safeFileName({ index: 0, ref: ref('a', 'Screen Shot 2026-11-25 at 10.04.11.png') })).toBe('1-Screen-Shot-2026-11-25-at-10.04.11.png');
    expect(safeFileName({ index: 1, ref: ref('a', 'photo', 'image/jpeg') })).toBe('2-photo.jpg');
    expect(safeFileName({ index: 2, ref: ref('a', '../../etc/passwd', 'text/plain') })).toBe('3-etc-passwd.txt');
    expect(safeFileName({ index: 3, ref: ref('a', '日本語.pdf', 'application/pdf') })).toBe('4-attachment.pdf');
    expect(ptyPromptText({ paths: ['/t/1-a.png', '/t/2-b.png'], text: 'what changed?' })).toBe('@/t/1-a.png @/t/2-b.png what changed?');
    expect(ptyPromptText({ paths: ['/t/1-a.png'], text: '' })).toBe('@/t/1-a.png ');
    expect(ptyPromptText({ paths: [], text: 'plain' })).toBe('plain');
  });

  it('sends a headless prompt as image, document and text blocks', () => {
    const text = new TextEncoder().encode('line one\n');
    expect(
      headlessContent({
        files: [
          { ref: ref('a', 'a.png'), data: PNG },
          { ref: ref('b', 'spec.pdf', 'application/pdf', 4), data: new Uint8Array([0x25, 0x50, 0x44, 0x46]) },
          { ref: ref('c', 'notes.txt', 'text/plain', text.length), data: text },
        ],
        text: 'read these',
      }),
    ).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: Buffer.from(PNG).toString('base64') } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERg==' }, title: 'spec.pdf' },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'line one\n' }, title: 'notes.txt' },
      { type: 'text', text: 'read these' },
    ]);
  });

  it('fetches with the runner’s token, writes 0600 files, keeps the order and drops a prompt whose file is gone', async () => {
    served.set('slow', PNG);
    served.set('fast', PNG);
    const logs: string[] = [];
    const inbox = createAttachmentInbox({ hub: { url: `http://127.0.0.1:${server.port}/`, token: 'tth_runner' }, sessionId: () => SESSION, log: (l) => logs.push(l), tempRoot: root });
    const events: string[] = [];
    const done = new Promise<void>((resolve) => {
      const then = (name: string) => ({
        ready: (text: string) => {
          events.push(`${name} ready: ${text}`);
          if (events.length === 4) resolve();
        },
        failed: (reason: string) => {
          events.push(`${name} failed: ${reason}`);
          if (events.length === 4) resolve();
        },
      });
      inbox.forPty({ promptId: 'p1', text: 'first', attachments: [ref('slow', 'shot.png')] }, then('p1'));
      inbox.forPty({ promptId: 'p2', text: 'second, no files', attachments: [] }, then('p2'));
      inbox.forPty({ promptId: 'p3', text: 'third', attachments: [ref('gone', 'lost.png')] }, then('p3'));
      inbox.forPty({ promptId: 'p1', text: 'first again (a resend)', attachments: [ref('slow', 'shot.png')] }, then('p1-again'));
      inbox.forPty({ promptId: 'p4', text: '', attachments: [ref('fast', 'a.png'), ref('fast', 'b.png')] }, then('p4'));
    });
    await done;
    const path = (prompt: string, file: string) => join(readdirOnly(root), prompt, file);
    expect(events).toEqual([
      `p1 ready: @${path('p1', '1-shot.png')} first`,
      'p2 ready: second, no files',
      'p3 failed: attachment lost.png could not be fetched: the hub no longer has it',
      `p4 ready: @${path('p4', '1-a.png')} @${path('p4', '2-b.png')} `,
    ]);
    expect(readFileSync(path('p1', '1-shot.png'))).toEqual(Buffer.from(PNG));
    expect(statSync(path('p1', '1-shot.png')).mode & 0o777).toBe(0o600);
    expect(statSync(readdirOnly(root)).mode & 0o777).toBe(0o700);
    expect(requests.every((r) => r.startsWith(`Bearer tth_runner /api/sessions/${SESSION}/attachments/`))).toBe(true);
    expect(requests.filter((r) => r.endsWith('/slow'))).toHaveLength(1);
    inbox.stop();
    expect(() => statSync(path('p1', '1-shot.png'))).toThrow();
  });

  it('local images (headless Codex): the files written, the images by path, the other files named in the text', async () => {
    served.set('photo', PNG);
    served.set('notes', new TextEncoder().encode('- bump the version\n'));
    const inbox = createAttachmentInbox({ hub: { url: `http://127.0.0.1:${server.port}/`, token: 'tth_runner' }, sessionId: () => SESSION, log: () => {}, tempRoot: root });
    const prompt = await new Promise<{ text: string; images: string[] }>((resolve, reject) =>
      inbox.forLocalImages({ promptId: 'p1', text: 'describe both', attachments: [ref('photo', 'photo.png'), ref('notes', 'notes.txt', 'text/plain', 19)] }, { ready: resolve, failed: reject }),
    );
    const path = (file: string) => join(readdirOnly(root), 'p1', file);
    expect(prompt).toEqual({ text: `@${path('2-notes.txt')} describe both`, images: [path('1-photo.png')] });
    expect(readFileSync(path('1-photo.png'))).toEqual(Buffer.from(PNG));
    const plain = await new Promise((resolve, reject) => inbox.forLocalImages({ promptId: 'p2', text: 'no files', attachments: [] }, { ready: resolve, failed: reject }));
    expect(plain).toEqual({ text: 'no files', images: [] });
    inbox.stop();
  });
});

/** The inbox's one private dir under `root`. */
function readdirOnly(root: string): string {
  const entries = readdirSync(root);
  expect(entries).toHaveLength(1);
  return join(root, entries[0]!);
}
