// spawn.test.ts: what the daemon refuses before it builds a runner's command line. A resume id is
// the one value from afar that lands among the agent's arguments: one that is not the agent's id
// format (a UUID) is refused before anything happens on the machine (no directory made, no process).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DaemonSpawnSchema } from '@tether/shared';
import { agentFor } from '../agents/index.ts';
import { startRunnerProcess } from './spawn.ts';
import { tempDirPerTest } from '../testing/temp-dirs.ts';

const SESSION = '0b1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';
const CLAUDE_ID = 'c1a0de00-0000-4000-8000-000000000001';

const home = tempDirPerTest('daemon-spawn');

describe('startRunnerProcess', () => {
  it("refuses a resume id that is not the agent's id format before it touches the machine", () => {
    for (const agent of ['claude', 'codex'] as const) {
      for (const id of ['--dangerously-skip-permissions', '-c', 'not-a-uuid']) {
        const cwd = join(home(), `new-${agent}`);
        // Past the schema (a daemon of this version parses it; an older hub or a bug may not).
        const request = { ...DaemonSpawnSchema.parse({ sessionId: SESSION, cwd, launchKind: 'pty', agent, createDir: true }), resumeAgentSessionId: id };
        const result = startRunnerProcess({ request, home: home(), machineId: SESSION, hub: { url: 'http://127.0.0.1:1', token: 'tth_x' }, env: { PATH: join(home(), 'no-bin'), HOME: home() } });
        expect(result, `${agent} ${id}`).toMatchObject({ ok: false, code: 'bad_request', reason: 'not_resumable' });
        expect((result as { error: string }).error).toContain('UUID');
        expect(existsSync(cwd)).toBe(false);
      }
    }
  });
});

describe('startRunnerProcess, added folders', () => {
  it("refuses a resume whose added folder is gone (naming it) or is no folder, before any process starts", () => {
    const cwd = join(home(), 'project');
    const gone = join(home(), 'gone-lib');
    const file = join(home(), 'a-file');
    mkdirSync(cwd);
    writeFileSync(file, 'x');
    for (const [dir, code, reason] of [[gone, 'not_found', 'dir_missing'], [file, 'bad_request', 'not_a_directory']] as const) {
      const request = DaemonSpawnSchema.parse({ sessionId: SESSION, cwd, launchKind: 'pty', agent: 'claude', resumeAgentSessionId: CLAUDE_ID, addedDirs: [cwd, dir] });
      const result = startRunnerProcess({ request, home: home(), machineId: SESSION, hub: { url: 'http://127.0.0.1:1', token: 'tth_x' }, env: { PATH: join(home(), 'no-bin'), HOME: home() } });
      expect(result, dir).toMatchObject({ ok: false, code, reason });
      expect((result as { error: string }).error).toContain(dir);
    }
    expect(existsSync(join(home(), 'logs'))).toBe(false);
  });
});

describe("the agents' spawn arguments", () => {
  it('pass a resume id as a value claude cannot read as a flag (--resume=<id>), and Codex as its resume subcommand', () => {
    expect(agentFor('claude').spawnArgs({ model: 'opus', permissionMode: 'plan', resumeId: CLAUDE_ID })).toEqual(['--model', 'opus', '--permission-mode', 'plan', `--resume=${CLAUDE_ID}`]);
    expect(agentFor('codex').spawnArgs({ model: null, permissionMode: null, resumeId: CLAUDE_ID })).toEqual(['resume', CLAUDE_ID]);
  });

  it('start a reviewer read-only in its own terms: claude in plan mode (whatever mode was asked), Codex in its read-only sandbox asking on request', () => {
    expect(agentFor('claude').spawnArgs({ model: null, permissionMode: 'bypassPermissions', resumeId: null, readOnly: true })).toEqual(['--permission-mode', 'plan']);
    expect(agentFor('codex').spawnArgs({ model: 'gpt-5.5', permissionMode: null, resumeId: CLAUDE_ID, readOnly: true })).toEqual([
      'resume',
      CLAUDE_ID,
      '-m',
      'gpt-5.5',
      '-c',
      'sandbox_mode="read-only"',
      '-c',
      'approval_policy="on-request"',
    ]);
    // Every agent that states it can be a reviewer does something about it.
    for (const kind of ['claude', 'codex'] as const) {
      const agent = agentFor(kind);
      expect(agent.capabilities.readOnly, kind).toBe(true);
      expect(agent.spawnArgs({ model: null, permissionMode: null, resumeId: null, readOnly: true }), kind).not.toEqual(agent.spawnArgs({ model: null, permissionMode: null, resumeId: null }));
    }
  });

  it("give each agent its added folders again in its own flag, one a folder, read back by the agent's own plan as the same folders", () => {
    const addedDirs = ['/srv/shared lib', '/home/ada/-notes'];
    expect(agentFor('claude').spawnArgs({ model: null, permissionMode: null, resumeId: CLAUDE_ID, addedDirs })).toEqual(['--add-dir=/srv/shared lib', '--add-dir=/home/ada/-notes', `--resume=${CLAUDE_ID}`]);
    expect(agentFor('codex').spawnArgs({ model: null, permissionMode: null, resumeId: CLAUDE_ID, addedDirs })).toEqual(['resume', CLAUDE_ID, '--add-dir=/srv/shared lib', '--add-dir=/home/ada/-notes']);
    expect(agentFor('gemini').spawnArgs({ model: null, permissionMode: null, resumeId: null, addedDirs })).toEqual(['--include-directories=/srv/shared lib', '--include-directories=/home/ada/-notes']);
    for (const kind of ['claude', 'codex', 'gemini'] as const) {
      const agent = agentFor(kind);
      expect(agent.plan(agent.spawnArgs({ model: 'm', permissionMode: null, resumeId: CLAUDE_ID, addedDirs })).addedDirs, kind).toEqual(addedDirs);
      expect(agent.spawnArgs({ model: null, permissionMode: null, resumeId: null, addedDirs: [] }), kind).toEqual(agent.spawnArgs({ model: null, permissionMode: null, resumeId: null }));
    }
  });

  it('throw on a resume id that is not a UUID rather than put it on a command line', () => {
    for (const kind of ['claude', 'codex'] as const) {
      expect(() => agentFor(kind).spawnArgs({ model: null, permissionMode: null, resumeId: '--dangerously-skip-permissions' }), kind).toThrow(/UUID/);
    }
  });
});
