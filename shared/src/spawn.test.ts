import { describe, expect, it } from 'vitest';
import { DaemonCommandAckSchemas, DaemonSpawnSchema, SessionSpawnSchema, sessionLaunchKind } from './spawn.ts';
import { SessionPatchSchema, SessionRegistrationSchema } from './session.ts';

const MACHINE = '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';
const SESSION = '0b1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';
const CLAUDE_ID = 'c1a0de00-0000-4000-8000-000000000001';
/** Ids that would be read as flags or as more than an id on the agent's command line. */
const NOT_IDS = ['--dangerously-skip-permissions', '-r', '-', '--', 'abc', 'c1a0de00-0000-4000-8000-00000000000', `${CLAUDE_ID} --x`, `${CLAUDE_ID}\n`, ''];

describe('an agent session id to resume', () => {
  it("is the agent's own id format (a UUID, claude's and Codex's both), never a flag", () => {
    expect(SessionSpawnSchema.parse({ machineId: MACHINE, cwd: '/w', resumeAgentSessionId: CLAUDE_ID }).resumeAgentSessionId).toBe(CLAUDE_ID);
    expect(DaemonSpawnSchema.parse({ sessionId: SESSION, cwd: '/w', launchKind: 'pty', resumeAgentSessionId: CLAUDE_ID }).resumeAgentSessionId).toBe(CLAUDE_ID);
    for (const id of NOT_IDS) {
      expect(SessionSpawnSchema.safeParse({ machineId: MACHINE, cwd: '/w', resumeAgentSessionId: id }).success, id).toBe(false);
      expect(DaemonSpawnSchema.safeParse({ sessionId: SESSION, cwd: '/w', launchKind: 'pty', resumeAgentSessionId: id }).success, id).toBe(false);
    }
  });

  it('is what a runner may report as its session\'s agent id (a resume reads it back from there)', () => {
    expect(SessionRegistrationSchema.parse({ id: SESSION, cwd: '/w', launchKind: 'pty', agentSessionId: CLAUDE_ID }).agentSessionId).toBe(CLAUDE_ID);
    expect(SessionPatchSchema.safeParse({ agentSessionId: null }).success).toBe(true);
    for (const id of NOT_IDS) {
      expect(SessionRegistrationSchema.safeParse({ id: SESSION, cwd: '/w', launchKind: 'pty', agentSessionId: id }).success, id).toBe(false);
      expect(SessionPatchSchema.safeParse({ agentSessionId: id }).success, id).toBe(false);
    }
  });
});

describe("a daemon's acks", () => {
  it('are ok with every field the hub reads, or an error ack (with a spawn reason when it has one); nothing else', () => {
    const spawn = DaemonCommandAckSchemas['daemon:spawn'];
    expect(spawn.parse({ ok: true, pid: 42, cwd: '/w', logFile: '/l', extra: 1 })).toEqual({ ok: true, pid: 42, cwd: '/w', logFile: '/l' });
    expect(spawn.parse({ ok: false, code: 'not_found', error: 'no dir', reason: 'dir_missing' })).toEqual({ ok: false, code: 'not_found', error: 'no dir', reason: 'dir_missing' });
    for (const bad of [{ ok: true, pid: 42 }, { ok: true, pid: 0, cwd: '/w', logFile: '/l' }, { ok: true, pid: 1, cwd: '', logFile: '/l' }, { ok: false }, { ok: false, code: 'nope', error: 'x' }, { ok: false, code: 'internal', error: 'x', reason: 'nope' }, { ok: 'yes' }, null, 'ok', []]) {
      expect(spawn.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(DaemonCommandAckSchemas['daemon:kill'].safeParse({ ok: true }).success).toBe(false);
    expect(DaemonCommandAckSchemas['daemon:kill'].parse({ ok: true, killed: false })).toEqual({ ok: true, killed: false });
    expect(DaemonCommandAckSchemas['daemon:shell-open'].safeParse({ ok: true, pid: 7 }).success).toBe(false);
    expect(DaemonCommandAckSchemas['daemon:shell-open'].parse({ ok: true, pid: 7, reattached: true })).toEqual({ ok: true, pid: 7, reattached: true });
    expect(DaemonCommandAckSchemas['daemon:shell-input'].parse({ ok: true })).toEqual({ ok: true });
  });
});

describe('a spawn in a new worktree', () => {
  const spawn = (worktree: unknown) => SessionSpawnSchema.safeParse({ machineId: MACHINE, cwd: '/w', worktree });
  it('takes a branch name git takes, made of letters, digits and . _ / -', () => {
    for (const branch of ['fix-login', 'tether/fix_1.2', 'a']) expect(spawn({ branch }).success, branch).toBe(true);
    expect(spawn({ branch: 'feature', base: 'main' }).success).toBe(true);
    expect(DaemonSpawnSchema.parse({ sessionId: SESSION, cwd: '/w', launchKind: 'pty' }).worktree).toBeNull();
  });

  it("refuses `..`, shell metacharacters, flags and git's ref rules, with a reason", () => {
    const bad = ['../up', 'a..b', 'x;rm -rf ~', 'a b', '$(id)', '`id`', 'a|b', 'a&b', '-f', '--force', '/abs', 'end/', 'a//b', '.hidden', 'a/.b', 'x.lock', 'a.', '@', '', 'a'.repeat(201), 'ü', 'a~1', 'a^', 'a:b', 'a?', 'a*', 'a[b', 'a\\b', 'a\nb'];
    for (const branch of bad) {
      const parsed = spawn({ branch });
      expect(parsed.success, branch).toBe(false);
      expect(parsed.error?.issues[0]?.message, branch).toMatch(/branch name/);
    }
    expect(spawn({ branch: 'ok', base: '../x' }).success).toBe(false);
    expect(spawn({ branch: 'ok', path: '/elsewhere' }).success).toBe(false);
  });
});

describe('an attached spawn', () => {
  it('names the background session it attaches to, by the agent\'s own 8-hex id, and only it does', () => {
    expect(DaemonSpawnSchema.parse({ sessionId: SESSION, cwd: '/w', launchKind: 'attached', backgroundId: 'f35b2b97' }).backgroundId).toBe('f35b2b97');
    expect(SessionSpawnSchema.parse({ machineId: MACHINE, cwd: '/w', launchKind: 'attached', backgroundId: 'f35b2b97' }).launchKind).toBe('attached');
    expect(DaemonSpawnSchema.safeParse({ sessionId: SESSION, cwd: '/w', launchKind: 'attached' }).success).toBe(false);
    expect(SessionSpawnSchema.safeParse({ machineId: MACHINE, cwd: '/w', launchKind: 'pty', backgroundId: 'f35b2b97' }).success).toBe(false);
    for (const id of [...NOT_IDS, 'F35B2B97', 'f35b2b9', 'f35b2b977', '-f35b2b9']) {
      expect(DaemonSpawnSchema.safeParse({ sessionId: SESSION, cwd: '/w', launchKind: 'attached', backgroundId: id }).success, id).toBe(false);
    }
  });

  it('starts a session that is a PTY one from then on', () => {
    expect(sessionLaunchKind('attached')).toBe('pty');
    expect(sessionLaunchKind('headless')).toBe('headless');
  });
});
