import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resumedSessionFile } from './resumed-file.ts';

const ID = 'a8bddd45-5e61-4f00-9a00-000000000001';
const header = (sessionId: string) => JSON.stringify({ sessionId, projectHash: 'p', startTime: '2026-11-27T12:21:40.000Z' });
const turn = (id: string) => JSON.stringify({ id, timestamp: '2026-11-27T12:21:50.000Z', type: 'user', content: [{ text: 'hi' }] });
const set = (what: object) => JSON.stringify({ $set: what });

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resumedSessionFile', () => {
  it('a resume in a later minute: SessionStart names the fresh recording, the turns are in the file it loaded', () => {
    dir = mkdtempSync(join(tmpdir(), 'tether-gemini-resumed-'));
    const loaded = join(dir, 'session-2026-11-27T12-21-a8bddd45.jsonl');
    const named = join(dir, 'session-2026-11-27T12-22-a8bddd45.jsonl');
    writeFileSync(loaded, [header(ID), turn('u1'), turn('a1'), set({ sessionId: ID }), set({ messages: [] }), turn('u2')].join('\n') + '\n');
    writeFileSync(named, [header(ID), set({ messages: [] })].join('\n') + '\n');
    // Another session's file with the same 8 characters is not this session's.
    writeFileSync(join(dir, 'session-2026-11-27T11-00-a8bddd45.jsonl'), [header('a8bddd45-0000-4000-8000-000000000000'), turn('x'), turn('y'), turn('z'), turn('w')].join('\n') + '\n');
    expect(resumedSessionFile(named)).toBe(loaded);
  });

  it('in the minute it started they are one file: the named one', () => {
    dir = mkdtempSync(join(tmpdir(), 'tether-gemini-resumed-'));
    const named = join(dir, 'session-2026-11-27T12-21-a8bddd45.jsonl');
    writeFileSync(named, [header(ID), turn('u1'), turn('a1')].join('\n') + '\n');
    expect(resumedSessionFile(named)).toBe(named);
    expect(resumedSessionFile(join(dir, 'not-a-session.jsonl'))).toBe(join(dir, 'not-a-session.jsonl'));
  });
});
