import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findGeminiSession, geminiAcpArgs } from './headless.ts';
import { planGeminiLaunch } from './launch.ts';
import { loadWaitMs, previousMinuteName, waitOutLoadMinute } from './load-minute.ts';
import { tempDirs } from '../../testing/temp-dirs.ts';

const tempDir = tempDirs('gemini-find');

describe('geminiAcpArgs', () => {
  it('--acp with the user\'s flags; a resume goes by session/load, the mode by --approval-mode', () => {
    expect(geminiAcpArgs(planGeminiLaunch(['-m', 'gemini-2.5-pro']))).toEqual(['--acp', '-m', 'gemini-2.5-pro']);
    const resumeId = '0b0e5c1e-1111-4222-8333-444455556666';
    expect(geminiAcpArgs(planGeminiLaunch(['--resume', resumeId, '--approval-mode', 'auto_edit']))).toEqual(['--acp', '--approval-mode', 'auto_edit']);
    expect(geminiAcpArgs(planGeminiLaunch(['--resume=x', '-y']))).toEqual(['--acp', '--approval-mode', 'yolo']);
  });
});

describe('findGeminiSession', () => {
  const id = '8b4bda4b-116f-44f9-9483-76d1e76b5b62';
  const home = () => {
    const dir = tempDir();
    const chats = join(dir, '.gemini', 'tmp', 'project', 'chats');
    mkdirSync(chats, { recursive: true });
    return { dir, chats };
  };

  it('the file whose header names the id, under GEMINI_CLI_HOME or HOME', () => {
    const { dir, chats } = home();
    writeFileSync(join(chats, 'session-2026-11-27T08-57-8b4bda4b.jsonl'), `${JSON.stringify({ sessionId: id, kind: 'main' })}\n{"id":"m1","type":"user"}\n`);
    // The same 8 characters, another session: not it.
    writeFileSync(join(chats, 'session-2026-11-27T08-58-8b4bda4b.jsonl'), `${JSON.stringify({ sessionId: '8b4bda4b-0000-4000-8000-000000000000' })}\n`);
    writeFileSync(join(chats, 'session-2026-11-27T08-59-8b4bda4b.jsonl'), 'not json\n');
    expect(findGeminiSession({ env: { HOME: dir }, sessionId: id })).toMatch(/session-2026-11-27T08-57-8b4bda4b\.jsonl$/);
    expect(findGeminiSession({ env: { GEMINI_CLI_HOME: dir, HOME: '/nonexistent' }, sessionId: id })).toMatch(/08-57-8b4bda4b/);
    expect(findGeminiSession({ env: { HOME: dir }, sessionId: '99999999-116f-44f9-9483-76d1e76b5b62' })).toBeNull();
    expect(findGeminiSession({ env: { HOME: '/nonexistent' }, sessionId: id })).toBeNull();
  });
});

describe('the load-minute wait (a Gemini bug wipes a session loaded in the minute its file is named for)', () => {
  const path = '/h/.gemini/tmp/p/chats/session-2026-11-27T08-57-8b4bda4b.jsonl';
  it('waits past the minute only in that minute', () => {
    const at = (iso: string) => Date.parse(iso);
    expect(loadWaitMs({ path, now: at('2026-11-27T08:57:20.000Z') })).toBe(41_000);
    expect(loadWaitMs({ path, now: at('2026-11-27T08:58:00.000Z') })).toBe(0);
    expect(loadWaitMs({ path, now: at('2026-11-27T08:56:59.000Z') })).toBe(0);
    expect(loadWaitMs({ path: '/x/other.jsonl', now: at('2026-11-27T08:57:20.000Z') })).toBe(0);
  });

  it('names the minute before, across an hour and a day', () => {
    expect(previousMinuteName(path)).toBe('session-2026-11-27T08-56-8b4bda4b.jsonl');
    expect(previousMinuteName('/c/session-2026-11-28T00-00-8b4bda4b.jsonl')).toBe('session-2026-11-27T23-59-8b4bda4b.jsonl');
    expect(previousMinuteName('/c/other.jsonl')).toBeNull();
  });

  it('in that minute, renames the file to the minute before instead of waiting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-gemini-minute-'));
    try {
      const file = join(dir, 'session-2026-11-27T08-57-8b4bda4b.jsonl');
      writeFileSync(file, '{"sessionId":"8b4bda4b-0000-4000-8000-000000000000"}\n');
      const slept: number[] = [];
      await waitOutLoadMinute({ path: file, log: () => {}, now: () => Date.parse('2026-11-27T08:57:20.000Z'), sleep: async (ms) => void slept.push(ms) });
      expect(slept).toEqual([]);
      expect(readdirSync(dir)).toEqual(['session-2026-11-27T08-56-8b4bda4b.jsonl']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when the rename cannot be made (the name is taken), sleeps past the minute and says why; nothing when there is no file', async () => {
    const slept: number[] = [];
    const logs: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'tether-gemini-minute-'));
    const taken = join(dir, 'session-2026-11-27T08-57-8b4bda4b.jsonl');
    writeFileSync(taken, '');
    writeFileSync(join(dir, 'session-2026-11-27T08-56-8b4bda4b.jsonl'), '');
    await waitOutLoadMinute({ path: taken, log: (l) => logs.push(l), now: () => Date.parse('2026-11-27T08:57:59.500Z'), sleep: async (ms) => void slept.push(ms) });
    rmSync(dir, { recursive: true, force: true });
    expect(slept).toEqual([1_500]);
    expect(logs[0]).toMatch(/waiting 2 s for the next minute/);
    await waitOutLoadMinute({ path: null, log: (l) => logs.push(l), sleep: async (ms) => void slept.push(ms) });
    expect(slept).toHaveLength(1);
  });
});
