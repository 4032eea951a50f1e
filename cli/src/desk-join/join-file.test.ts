import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readDeskJoin, writeDeskJoin, type DeskJoin } from './join-file.ts';

const SESSION = '0b7a4f5e-1c2d-4e3f-8a9b-0c1d2e3f4a5b';
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-joins-'));
  homes.push(dir);
  return dir;
}
const record = (over: Partial<DeskJoin> = {}): DeskJoin => ({ agent: 'codex', url: 'ws://127.0.0.1:4711', token: 'secret-token', agentSessionId: 'a1b2c3d4-0000-4000-8000-000000000001', transcript: '/tmp/x/rollout.jsonl', cwd: '/tmp/x', pid: process.pid, ...over });

describe('desk join records', () => {
  it('are written for this user only and read back; removed, they read as absent', () => {
    const h = home();
    const remove = writeDeskJoin({ home: h, sessionId: SESSION, join: record() });
    expect(statSync(join(h, 'joins')).mode & 0o777).toBe(0o700);
    expect(statSync(join(h, 'joins', `${SESSION}.json`)).mode & 0o777).toBe(0o600);
    expect(readDeskJoin({ home: h, sessionId: SESSION })).toEqual({ join: record() });
    remove();
    expect(readDeskJoin({ home: h, sessionId: SESSION })).toMatchObject({ error: expect.stringContaining('no session') });
  });

  it('refuse a session id that is not a UUID (no path outside the folder), a malformed record, one pointing off this host, and one whose runner is gone', () => {
    const h = home();
    expect(readDeskJoin({ home: h, sessionId: '../credentials' })).toEqual({ error: expect.stringContaining('not a session id') });
    writeDeskJoin({ home: h, sessionId: SESSION, join: record() });
    const file = join(h, 'joins', `${SESSION}.json`);
    writeFileSync(file, '{"agent":"codex"');
    expect(readDeskJoin({ home: h, sessionId: SESSION })).toEqual({ error: expect.stringContaining('malformed') });
    writeFileSync(file, JSON.stringify(record({ url: 'ws://10.0.0.5:4711' })));
    expect(readDeskJoin({ home: h, sessionId: SESSION })).toEqual({ error: expect.stringContaining('malformed') });
    // A pid no process has (above Linux's pid_max).
    writeFileSync(file, JSON.stringify(record({ pid: 2 ** 22 + 1 })));
    expect(readDeskJoin({ home: h, sessionId: SESSION })).toEqual({ error: expect.stringContaining('has ended') });
    expect(readFileSync(file, 'utf8')).toContain('secret-token');
  });
});
