// find.test.ts: Find inside a session, end to end: a real `tether claude` runner (claude real,
// against the fake Messages API) in a folder; a prompt and claude's answer name a word; the phone
// searches over REST as the web app does. The chat answers with the message (seq, id, block: where
// the chat scrolls to), the terminal with the line of claude's screen that holds the word (what the
// terminal scrolls to), the files with the file and line (what Files opens), read back through the
// Files API at that line. What is outside the boundary is never found: `.git`, a link out, a hard
// link. Another namespace finds no session.
//
//   test ─POST /api/sessions/:id/find─► hub ─► store (chat) · terminal replay · find:files ─► tether claude runner
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FindAnswer } from '@tether/shared';
import { useCleanups } from '../harness/cleanups.ts';
import { startStage } from '../harness/world.ts';
import { text, userSays, when } from '../fixtures/fake-anthropic/index.ts';

const defer = useCleanups();
const IDLE_BOX = /❯[\s\u00a0]*\n─+/;

describe('Find inside a session', () => {
  it('finds a word in the chat, in the scrollback and in a file, each with the place to jump to', async () => {
    const stage = await startStage(defer);
    const { sandbox, hub } = stage;
    stage.fake.setScript([when(userSays(/narwhal/), text('Narwhals live in the Arctic; the tusk is a tooth.')), when(userSays(/.*/), text('plain answer'))]);
    expect(Bun.spawnSync(['git', 'init', '-q'], { cwd: sandbox.cwd }).exitCode).toBe(0);
    mkdirSync(join(sandbox.cwd, 'src'));
    writeFileSync(join(sandbox.cwd, 'src', 'sea.ts'), "export const fish = 'cod';\nexport const whale = 'narwhal';\n");
    writeFileSync(join(sandbox.cwd, '.git', 'narwhal-note'), 'narwhal in .git\n');
    const outside = stage.tempDir('tether-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'narwhal secret\n');
    symlinkSync(join(outside, 'secret.txt'), join(sandbox.cwd, 'out.txt'));
    linkSync(join(outside, 'secret.txt'), join(sandbox.cwd, 'hard.txt'));

    const runner = stage.startRunner();
    const phone = await stage.startWatch(runner.sessionId);
    await runner.waitForScreen(IDLE_BOX);
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'the session idle', timeoutMs: 30_000 });
    await phone.send('Where does the narwhal live?');
    await runner.waitForScreen('Narwhals live in the Arctic');
    await phone.waitFor(() => phone.messages().some((m) => m.role === 'assistant' && JSON.stringify(m.content).includes('Narwhals live')) || null, { what: "claude's answer in the chat" });

    const find = async (body: unknown, token = hub.token) => {
      const res = await fetch(`${hub.url}/api/sessions/${runner.sessionId}/find`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as FindAnswer };
    };
    const started = Date.now();
    const found = await find({ q: 'narwhal' });
    const tookMs = Date.now() - started;
    expect(found.status).toBe(200);
    const { chat, terminal, files } = found.body;

    // The chat: the prompt and the answer, newest first, each a message the chat can scroll to.
    if (!chat?.ok) throw new Error(`chat: ${JSON.stringify(chat)}`);
    const said = chat.matches.map((m) => [m.role, m.text.slice(m.start, m.end).toLowerCase()]);
    expect(said).toContainEqual(['assistant', 'narwhal']);
    expect(said).toContainEqual(['user', 'narwhal']);
    const answer = chat.matches.find((m) => m.role === 'assistant')!;
    expect(phone.messages().find((m) => m.seq === answer.seq)?.id).toBe(answer.messageId);

    // The terminal: claude's screen holds the prompt and the answer.
    if (!terminal?.ok) throw new Error(`terminal: ${JSON.stringify(terminal)}`);
    expect(terminal.matches.some((m) => m.text.includes('Narwhals live in the Arctic'))).toBe(true);

    // The files: src/sea.ts at line 2, and nothing from .git, the link out or the hard link.
    if (!files?.ok) throw new Error(`files: ${JSON.stringify(files)}`);
    expect(files.matches.map((m) => [m.path, m.line])).toEqual([['src/sea.ts', 2]]);
    expect(files.skipped).toBeGreaterThanOrEqual(2);
    const opened = await fetch(`${hub.url}/api/sessions/${runner.sessionId}/file?path=src/sea.ts`, { headers: { authorization: `Bearer ${hub.token}` } });
    const file = (await opened.json()) as { text: string };
    expect(file.text.split('\n')[files.matches[0]!.line! - 1]).toContain('narwhal');

    // Another namespace finds no session; a wildcard search finds the answer's whole phrase.
    expect((await find({ q: 'narwhal' }, await hub.createToken('someone-else'))).status).toBe(404);
    const wild = await find({ q: 'arctic*tooth', mode: 'wildcard', in: ['chat'] });
    expect(wild.body.chat).toMatchObject({ ok: true, matches: [{ role: 'assistant' }] });
    console.log(`find e2e: one search of chat, terminal and files took ${tookMs} ms`);
  });
});
