import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeConversations } from './conversations.ts';

const ID = '3f0c7a52-6a0e-4f43-9c1f-2f2b1d6e8a10';
const line = (o: object) => `${JSON.stringify(o)}\n`;
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function read(head: string, id = ID) {
  return claudeConversations.readHead({ path: `/x/projects/-p/${id}.jsonl`, head, env: {} });
}

describe("claude's saved conversations", () => {
  it('the first prompt typed is the title, the lines’ cwd the folder; claude’s own lines are not prompts', () => {
    const head =
      line({ type: 'queue-operation', operation: 'enqueue', content: 'x' }) +
      line({ type: 'user', isMeta: true, cwd: '/home/me/p', sessionId: ID, message: { role: 'user', content: 'Caveat: meta' } }) +
      line({ type: 'user', cwd: '/home/me/p', sessionId: ID, message: { role: 'user', content: '<command-name>/model</command-name>' } }) +
      line({ type: 'user', cwd: '/home/me/p', sessionId: ID, message: { role: 'user', content: `fix   the\nbuild ${'x'.repeat(300)}` } });
    const found = read(head);
    expect(found).toMatchObject({ agentSessionId: ID, folder: '/home/me/p' });
    expect(found!.title.startsWith('fix the build x')).toBe(true);
    expect(found!.title.length).toBe(200);
  });

  it('claude’s own title wins over the first prompt', () => {
    const head = line({ type: 'user', cwd: '/p', message: { content: 'hello' } }) + line({ type: 'custom-title', customTitle: 'Release notes', sessionId: ID });
    expect(read(head)?.title).toBe('Release notes');
  });

  it('a head with no cwd, or that is not JSON, is no conversation; a name that is no session id is not one', () => {
    expect(read('not json\n')).toBeNull();
    expect(read(line({ type: 'user', message: { content: 'hi' } }))).toBeNull();
    expect(claudeConversations.isConversation('notes.jsonl')).toBe(false);
    expect(claudeConversations.isConversation(`${ID}.jsonl`)).toBe(true);
  });

  it('live writers: a status file naming a live pid; a dead pid is none; a background one names its id', () => {
    const config = mkdtempSync(join(tmpdir(), 'claude-conv-'));
    dirs.push(config);
    mkdirSync(join(config, 'sessions'));
    writeFileSync(join(config, 'sessions', `${process.pid}.json`), JSON.stringify({ pid: process.pid, sessionId: ID, kind: 'interactive' }));
    writeFileSync(join(config, 'sessions', '999999999.json'), JSON.stringify({ pid: 999_999_999, sessionId: 'other' }));
    expect([...claudeConversations.liveWriters!.ids({ CLAUDE_CONFIG_DIR: config })]).toEqual([[ID, { pid: process.pid, backgroundId: null }]]);
    // claude 2.1.332's background session (claude --bg): kind "bg", its id in jobId.
    writeFileSync(join(config, 'sessions', `${process.pid}.json`), JSON.stringify({ pid: process.pid, sessionId: ID, kind: 'bg', jobId: 'cdd46f1d' }));
    expect([...claudeConversations.liveWriters!.ids({ CLAUDE_CONFIG_DIR: config })]).toEqual([[ID, { pid: process.pid, backgroundId: 'cdd46f1d' }]]);
    // A jobId that is not one claude's verbs take is not believed.
    writeFileSync(join(config, 'sessions', `${process.pid}.json`), JSON.stringify({ pid: process.pid, sessionId: ID, kind: 'bg', jobId: '--help' }));
    expect([...claudeConversations.liveWriters!.ids({ CLAUDE_CONFIG_DIR: config })]).toEqual([[ID, { pid: process.pid, backgroundId: null }]]);
  });
});
