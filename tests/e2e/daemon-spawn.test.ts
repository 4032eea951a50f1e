// Sessions started from the phone through the hub and a real `tether daemon` (real claude against
// the fake API): PTY and headless spawns are acked only once ready and then chat; a bad directory
// and a claude that dies before ready are clear errors with no respawn; stop ends a session.
import { chmodSync, writeFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { text } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { emitAck } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';
import { startDaemonWorld } from '../harness/world.ts';
import { spawnVia } from '../harness/daemon.ts';
import type { Session } from '@tether/shared';
import { spawn } from 'node:child_process';
import { TETHER_MAIN } from '../harness/runner.ts';

const defer = useCleanups();

describe('tether daemon: sessions started from the phone', () => {
  it('lists the machine online; a headless spawn is acked ready and chats', async () => {
    const { hub, sandbox, daemon, phone, startWatch } = await startDaemonWorld(defer, { script: [text('headless reply one'), text('headless reply two')] });
    const res = await fetch(`${hub.url}/api/machines`, { headers: { authorization: `Bearer ${hub.token}` } });
    const { machines } = (await res.json()) as { machines: Array<{ id: string; online: boolean; name: string }> };
    expect(machines).toEqual([expect.objectContaining({ id: daemon.machineId(), online: true, name: 'test-machine' })]);

    const started = Date.now();
    const ack = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd });
    expect(ack.error).toBeUndefined();
    expect(ack.ok).toBe(true);
    expect(ack.session).toMatchObject({ launchKind: 'headless', status: 'idle', machineId: daemon.machineId(), cwd: sandbox.cwd });
    console.log(`headless spawn ready in ${Date.now() - started} ms`);

    const watch = await startWatch(ack.session!.id);
    const first = await watch.send('hello headless');
    const second = await watch.send('and again');
    expect(first.ok && second.ok).toBe(true);
    await watch.waitFor(() => watch.messages().find((m) => chatText(m).includes('headless reply two')), { what: 'second reply', timeoutMs: 30_000 });
    const texts = watch.messages().map((m) => `${m.role}:${chatText(m)}`).filter((t) => !t.endsWith(':'));
    expect(texts).toEqual(['user:hello headless', 'assistant:headless reply one', 'user:and again', 'assistant:headless reply two']);
    await watch.waitFor(() => watch.prompts().get(second.promptId)?.status === 'delivered', { what: 'delivered' });
    await watch.waitFor(() => watch.session()?.agentSessionId, { what: 'claude session id' });
    expect(watch.duplicates()).toBe(0);

    const stop = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId: ack.session!.id }, 30_000);
    expect(stop.ok).toBe(true);
    if (stop.ok) expect(stop.session.status).toBe('ended');
  });

  it('a PTY spawn is acked once the prompt is on screen, and its terminal streams', async () => {
    const { sandbox, daemon, phone, startWatch } = await startDaemonWorld(defer, { script: [text('pty reply')] });
    const ack = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind: 'pty' });
    expect(ack.error).toBeUndefined();
    expect(ack.session).toMatchObject({ launchKind: 'pty', status: 'idle', deskAttached: false });
    const watch = await startWatch(ack.session!.id);
    await watch.send('hi pty');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m).includes('pty reply')), { what: 'pty reply', timeoutMs: 30_000 });
    const stop = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId: ack.session!.id }, 30_000);
    expect(stop.ok).toBe(true);
  });

  it('a missing directory is a clear error; with createDir it is created', async () => {
    const { sandbox, daemon, phone } = await startDaemonWorld(defer);
    const missing = join(sandbox.cwd, 'no', 'such', 'dir');
    const ack = await spawnVia(phone, { machineId: daemon.machineId(), cwd: missing });
    expect(ack).toMatchObject({ ok: false, code: 'not_found', reason: 'dir_missing' });
    expect(ack.error).toContain(missing);
    expect(existsSync(missing)).toBe(false);
    // An unknown machine is told apart from an offline one.
    const unknown = await spawnVia(phone, { machineId: crypto.randomUUID(), cwd: sandbox.cwd });
    expect(unknown).toMatchObject({ ok: false, reason: 'machine_unknown' });
    // createDir: the directory is made (claude may then ask to trust it: that is the trust issue's job).
    const created = await spawnVia(phone, { machineId: daemon.machineId(), cwd: mkdtempSync(join(tmpdir(), 'tether-new-')) + '/sub', createDir: true, launchKind: 'headless' });
    expect(created.ok).toBe(true);
    await emitAck(phone, 'session:stop', { sessionId: created.session!.id }, 30_000);
  });

  it('claude exiting before ready is reported with its reason, once, and never respawned', async () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'tether-badclaude-')), 'claude');
    writeFileSync(bad, '#!/bin/sh\necho "claude: cannot start (simulated)" >&2\nexit 1\n');
    chmodSync(bad, 0o755);
    const { hub, sandbox, daemon, phone } = await startDaemonWorld(defer, { daemonEnv: { TETHER_CLAUDE_BIN: bad } });
    for (const launchKind of ['headless', 'pty'] as const) {
      const ack = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind });
      expect(ack.ok).toBe(false);
      expect(ack.reason).toBe('claude_failed');
      expect(ack.error).toMatch(/before (it was ready|its prompt appeared)/);
      expect(ack.error).toContain('simulated');
    }
    // Exactly two runners were started and both are gone: no respawn loop.
    await daemon.waitForOutput(/runner exited[\s\S]*runner exited/);
    expect(daemon.output().match(/started (pty|headless) session/g)).toHaveLength(2);
    const sessions = await hub.store.listSessions({ namespace: hub.namespace });
    expect(sessions.map((s) => s.status)).toEqual(['failed', 'failed']);
  });

  it('tether machines / spawn / stop from a shell: the id on success, the reason and a non-zero exit on failure', async () => {
    const { hub, sandbox, daemon } = await startDaemonWorld(defer);
    const env = { ...sandbox.env, TETHER_HOME: daemon.home, TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token };
    // Async: the hub lives in this process, so a blocking spawnSync would starve it.
    const tether = (...args: string[]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [TETHER_MAIN, ...args], { env, cwd: sandbox.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.once('exit', (status) => resolve({ status, stdout, stderr }));
      });
    const machines = await tether('machines', '--json');
    expect(machines.status).toBe(0);
    expect(JSON.parse(machines.stdout).machines).toEqual([expect.objectContaining({ id: daemon.machineId(), online: true })]);

    const bad = await tether('spawn', '--machine', 'test-machine', '--dir', join(sandbox.cwd, 'nope'));
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('dir_missing');
    expect(bad.stderr).toContain('does not exist');

    const ok = await tether('spawn', '--machine', 'test-machine', '--dir', sandbox.cwd, '--json');
    expect(ok.stderr).toBe('');
    const spawned = JSON.parse(ok.stdout) as { sessionId: string; launchKind: string; status: string };
    expect(spawned).toMatchObject({ launchKind: 'headless', status: 'idle' });
    const stopped = await tether('stop', spawned.sessionId);
    expect(stopped.status).toBe(0);
    expect(stopped.stdout).toContain(`stopped ${spawned.sessionId} (ended)`);
  });
});
