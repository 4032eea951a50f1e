// find.contract.ts: Find over REST against a real hub, with a socket.io client playing the runner:
// the chat (the store), the terminal (the screen the hub asks the runner for, and bytes after it)
// and the files (the runner's find:files answer, checked with the shared schema); another namespace
// finds no session, bad searches are refused before anything is read, and each source fails on its
// own. Run by find.test.ts on SQLite and by tests/store/find-postgres.test.ts on PostgreSQL.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { FindAnswer } from '@tether/shared';
import type { hubUnderTest } from '../testing/hub-under-test.ts';

export function runFindHubContract(live: ReturnType<typeof hubUnderTest>, name: string): void {

  const post = (sessionId: string, bearer: string, body: unknown) =>
    fetch(`${live.hub.url}/api/sessions/${sessionId}/find`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  function text(id: string, role: 'user' | 'assistant', body: string) {
    return { id, role, content: [{ type: 'text', text: body }], createdAt: 1 };
  }

  async function runnerSession(o: { launchKind?: 'pty' | 'headless'; files?: (q: unknown) => unknown; screen?: string } = {}) {
    const token = await live.token(`ns-${randomUUID().slice(0, 8)}`);
    const runner: Socket = await live.connect({ nsp: '/cli', token });
    const sessionId = randomUUID();
    expect((await live.register(runner, { id: sessionId, status: 'idle', launchKind: o.launchKind ?? 'pty' })).ok).toBe(true);
    const asked: unknown[] = [];
    runner.on('find:files', (query: unknown, reply: (a: unknown) => void) => {
      asked.push(query);
      reply(o.files ? o.files(query) : { ok: true, matches: [], stopped: null, files: 0, bytes: 0, skipped: 0 });
    });
    runner.on('terminal:snapshot-request', () => {
      void live.ack(runner, 'terminal:snapshot', { sessionId, offset: 0, cols: 80, rows: 24, data: o.screen ?? '' });
    });
    return { token, runner, sessionId, asked };
  }

  describe(`find (hub): ${name}`, () => {
    it('finds a word in the chat, the terminal and the files, each part with its places', async () => {
      const { token, runner, sessionId, asked } = await runnerSession({
        screen: '\x1b[1m$ npm test\x1b[0m\r\n\x1b[32m✓ walrus suite\x1b[0m\r\n',
        files: () => ({ ok: true, matches: [{ path: 'src/walrus.ts', line: 3, text: 'export const Walrus = 1;', start: 13, end: 19 }], stopped: null, files: 4, bytes: 120, skipped: 1 }),
      });
      expect(await live.ack(runner, 'message:append', { sessionId, messages: [text('m1', 'user', 'tell me about the walrus\nplease'), text('m2', 'assistant', 'A walrus (Odobenus) …'), text('m3', 'user', 'thanks')] })).toMatchObject({ ok: true });
      const res = await post(sessionId, token, { q: 'WALRUS' });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = (await res.json()) as FindAnswer;
      expect(body.chat).toMatchObject({ ok: true, stopped: null, from: null, matches: [{ seq: 2, messageId: 'm2', block: 0, role: 'assistant', text: 'A walrus (Odobenus) …', start: 2, end: 8 }, { seq: 1, messageId: 'm1', text: 'tell me about the walrus' }] });
      expect(body.terminal).toMatchObject({ ok: true, stopped: null, matches: [{ text: '✓ walrus suite', start: 2, end: 8 }] });
      expect(body.files).toMatchObject({ ok: true, files: 4, skipped: 1, matches: [{ path: 'src/walrus.ts', line: 3 }] });
      expect(asked).toEqual([{ sessionId, q: 'WALRUS', mode: 'literal', caseSensitive: false }]);
    });

    it("matches case and wildcards in the chat and never matches the stored form's keys or escapes", async () => {
      const { token, runner, sessionId } = await runnerSession();
      await live.ack(runner, 'message:append', { sessionId, messages: [text('m1', 'user', 'Deploy to prod\tnow'), text('m2', 'assistant', '100% done_ok "quoted"')] });
      const find = async (body: object) => ((await (await post(sessionId, token, { in: ['chat'], ...body })).json()) as FindAnswer).chat;
      expect(await find({ q: 'deploy' })).toMatchObject({ matches: [{ seq: 1 }] });
      expect(await find({ q: 'deploy', caseSensitive: true })).toMatchObject({ matches: [] });
      expect(await find({ q: 'dep*prod', mode: 'wildcard' })).toMatchObject({ matches: [{ seq: 1, start: 0, end: 14 }] });
      expect(await find({ q: '100% done_ok "quoted"' })).toMatchObject({ matches: [{ seq: 2 }] });
      expect(await find({ q: '0%' })).toMatchObject({ matches: [{ seq: 2 }] });
      expect(await find({ q: 'role' })).toMatchObject({ matches: [] }); // a key of the stored JSON
      expect(await find({ q: '\\t' })).toMatchObject({ matches: [] }); // the tab's escape in the JSON
    });

    it('says why a source cannot answer, and the others still do', async () => {
      const { token, runner, sessionId } = await runnerSession({ launchKind: 'headless', files: () => ({ ok: false, code: 'internal', error: 'disk on fire' }) });
      await live.ack(runner, 'message:append', { sessionId, messages: [text('m1', 'user', 'walrus')] });
      const body = (await (await post(sessionId, token, { q: 'walrus' })).json()) as FindAnswer;
      expect(body.chat).toMatchObject({ ok: true, matches: [{ seq: 1 }] });
      expect(body.terminal).toEqual({ ok: false, error: 'this session runs headless: it has no terminal' });
      expect(body.files).toEqual({ ok: false, error: 'disk on fire' });
    });

    it('refuses another namespace and bad searches before anything is read', async () => {
      const { token, sessionId, asked } = await runnerSession();
      const other = await live.token(`ns-${randomUUID().slice(0, 8)}`);
      const foreign = await post(sessionId, other, { q: 'walrus' });
      expect(foreign.status).toBe(404);
      for (const body of [{ q: '' }, { q: 'a\nb' }, { q: '**', mode: 'wildcard' }, { q: 'x', mode: 'regex' }, { q: 'x', in: ['mail'] }, { q: 'x'.repeat(201) }]) {
        expect((await post(sessionId, token, body)).status, JSON.stringify(body)).toBe(400);
      }
      expect((await post('not-a-session', token, { q: 'x' })).status).toBe(400);
      expect(asked).toEqual([]);
    });
  });
}
