// A real hub and a socket.io client playing the runner (answering file:write as a runner would):
// the namespace check, protected names and bad bodies refused before the runner is asked, the
// mid-turn refusal and its confirm, a stale answer passed on as a 409 with the file's text, and
// each save a system line in the session's chat (who, which device).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FILE_MID_TURN_REFUSAL, FILE_STALE_REFUSAL, type SessionStatus } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-file-edits-', ackTimeoutMs: 10_000 });
const BASE = 'a'.repeat(64);
const NOW = 'b'.repeat(64);

type Asked = { sessionId: string; path: string; text: string; base: string };

async function sessionWithRunner(status: SessionStatus, answer: (q: Asked) => unknown) {
  const label = `phone-${randomUUID().slice(0, 6)}`;
  const token = await live.token(`ns-${randomUUID().slice(0, 8)}`, { label });
  const socket = await live.connect({ nsp: '/cli', token });
  const sessionId = randomUUID();
  expect((await live.register(socket, { id: sessionId, cwd: '/home/dev/project', status })).ok).toBe(true);
  const asked: Asked[] = [];
  socket.on('file:write', (query: Asked, reply: (a: unknown) => void) => {
    asked.push(query);
    reply(answer(query));
  });
  return { token, label, sessionId, asked };
}

const put = (sessionId: string, bearer: string, body: unknown) =>
  fetch(`${live.hub.url}/api/sessions/${sessionId}/file`, { method: 'PUT', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const written = (q: Asked) => ({ ok: true, kind: 'written', path: q.path, size: q.text.length, hash: NOW, eol: 'lf' });

describe('file edits forwarding', () => {
  it("forwards a save and says it in the session's chat with who and which device", async () => {
    const { token, label, sessionId, asked } = await sessionWithRunner('idle', written);
    const res = await put(sessionId, token, { path: 'src/a.ts', text: 'new\n', base: BASE, device: 'Pixel 8' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ kind: 'written', path: 'src/a.ts', size: 4, hash: NOW, eol: 'lf' });
    expect(asked).toEqual([{ sessionId, path: 'src/a.ts', text: 'new\n', base: BASE }]);
    const page = (await (await fetch(`${live.hub.url}/api/sessions/${sessionId}/messages`, { headers: { authorization: `Bearer ${token}` } })).json()) as { messages: Array<{ role: string; content: Array<{ text?: string }> }> };
    expect(page.messages.map((m) => [m.role, m.content[0]?.text])).toEqual([['system', `Edited src/a.ts from the web app (${label} on Pixel 8). The agent is told with its next prompt.`]]);
  });

  it('passes a stale answer on as a 409 with what the file holds now, and adds no chat line', async () => {
    const { token, sessionId } = await sessionWithRunner('idle', (q) => ({ ok: true, kind: 'stale', path: q.path, hash: NOW, text: 'theirs\n' }));
    const res = await put(sessionId, token, { path: 'a.txt', text: 'mine\n', base: BASE });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: 'conflict', error: FILE_STALE_REFUSAL, stale: { kind: 'stale', path: 'a.txt', hash: NOW, text: 'theirs\n' } });
    const page = (await (await fetch(`${live.hub.url}/api/sessions/${sessionId}/messages`, { headers: { authorization: `Bearer ${token}` } })).json()) as { messages: unknown[] };
    expect(page.messages).toEqual([]);
  });

  it('refuses protected names and bad bodies before the runner is asked', async () => {
    const { token, sessionId, asked } = await sessionWithRunner('idle', written);
    for (const [body, status, reason] of [
      [{ path: '.claude/settings.json', text: '{}', base: BASE }, 403, "claude's settings"],
      [{ path: 'pkg/.claude/settings.local.json', text: '{}', base: BASE }, 403, "claude's settings"],
      [{ path: '.MCP.json', text: '{}', base: BASE }, 403, 'MCP servers'],
      [{ path: '.codex/config.toml', text: '', base: BASE }, 403, "'.codex'"],
      [{ path: '.gemini/settings.json', text: '', base: BASE }, 403, "'.gemini'"],
      [{ path: '.envrc', text: '', base: BASE }, 403, 'direnv'],
      [{ path: '.husky/pre-commit', text: '', base: BASE }, 403, 'git hook'],
      [{ path: '.git/hooks/pre-push', text: '', base: BASE }, 400, "'.git'"],
      [{ path: '../x', text: '', base: BASE }, 400, "session's directory"],
      [{ path: '', text: '', base: BASE }, 400, 'name a file'],
      [{ path: 'a.txt', text: '', base: 'nope' }, 400, 'sha256'],
    ] as const) {
      const res = await put(sessionId, token, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(((await res.json()) as { error: string }).error, JSON.stringify(body)).toContain(reason);
    }
    expect(asked).toEqual([]);
  });

  it('refuses mid-turn unless confirmed; another namespace finds no session', async () => {
    const { token, sessionId, asked } = await sessionWithRunner('thinking', written);
    const refused = await put(sessionId, token, { path: 'a.txt', text: 'x', base: BASE });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ code: 'conflict', error: FILE_MID_TURN_REFUSAL });
    expect(asked).toEqual([]);
    expect((await put(sessionId, token, { path: 'a.txt', text: 'x', base: BASE, confirm: true })).status).toBe(200);
    const page = (await (await fetch(`${live.hub.url}/api/sessions/${sessionId}/messages`, { headers: { authorization: `Bearer ${token}` } })).json()) as { messages: Array<{ content: Array<{ text?: string }> }> };
    expect(page.messages[0]?.content[0]?.text).toContain('while the agent was mid-turn');
    const stranger = await live.token(`ns-${randomUUID().slice(0, 8)}`);
    expect(await (await put(sessionId, stranger, { path: 'a.txt', text: 'x', base: BASE, confirm: true })).json()).toEqual({ code: 'not_found', error: 'no such session' });
    expect(asked).toHaveLength(1);
  });
});
