import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { geminiConversations } from './conversations.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const FIXTURE = readFileSync(join(import.meta.dirname, 'transcript-fixtures', 'gemini-0.61.0-session.jsonl'), 'utf8');

describe("Gemini's saved sessions", () => {
  it('a real session file: its id, the workspace folder of its context, the first prompt typed', () => {
    const found = geminiConversations.readHead({ path: '/h/.gemini/tmp/proj/chats/session-1.jsonl', head: FIXTURE, env: { HOME: '/nowhere' } });
    expect(found?.agentSessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(found?.folder).toMatch(/^\//);
    expect(found?.title.length).toBeGreaterThan(0);
    expect(found?.title.startsWith('<session_context>')).toBe(false);
  });

  it('projects.json names the folder of a slug', () => {
    const home = mkdtempSync(join(tmpdir(), 'gemini-conv-'));
    dirs.push(home);
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { '/work/app': 'app' } }));
    const header = `${JSON.stringify({ sessionId: '100295f5-9a44-4374-b314-0ee2140ec80c', kind: 'main' })}\n${JSON.stringify({ id: 'a', type: 'user', content: [{ text: 'hi' }] })}\n`;
    expect(geminiConversations.readHead({ path: join(home, '.gemini/tmp/app/chats/session-1.jsonl'), head: header, env: { HOME: home } })).toEqual({
      agentSessionId: '100295f5-9a44-4374-b314-0ee2140ec80c',
      folder: '/work/app',
      title: 'hi',
    });
  });

  it('no header, or no folder to be found: not a conversation', () => {
    expect(geminiConversations.readHead({ path: '/x/tmp/s/chats/session-1.jsonl', head: '{"type":"user"}\n', env: { HOME: '/nowhere' } })).toBeNull();
    expect(geminiConversations.readHead({ path: '/x/tmp/s/chats/session-1.jsonl', head: '{"sessionId":"100295f5-9a44-4374-b314-0ee2140ec80c"}\n', env: { HOME: '/nowhere' } })).toBeNull();
  });
});
