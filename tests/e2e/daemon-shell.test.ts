// daemon-shell.test.ts: web shells (shared/src/shell.ts) against a real hub, a real `tether daemon`
// process and real PTY login shells. Off unless both the hub (--enable-shell) and the daemon
// (--allow-shell) allow them; one shell per viewer id (a second device never gets the first one's);
// the same viewer id reattaches; another namespace and a share link are refused; a viewer that stays
// away loses its shell.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { useCleanups, type Defer } from '../harness/cleanups.ts';
import { isAlive, startDaemon } from '../harness/daemon.ts';
import { connectSocket, emitAck } from '../harness/hub.ts';
import { startStage } from '../harness/world.ts';
import { createWaits } from '../harness/waiting.ts';

const defer = useCleanups();
/** A shell prints its first prompt in milliseconds; a loaded box gets 20 s. */
const SHELL_TIMEOUT_MS = 20_000;

type ShellAck = { ok: boolean; shellId?: string; reattached?: boolean; code?: string; error?: string };

/** A /web socket holding one shell: everything it printed (cleared on `reset`) and its exit. */
async function shellViewer(defer: Defer, hub: { url: string }, token: string) {
  const socket = await connectSocket({ url: hub.url, nsp: '/web', token });
  defer(() => socket.close());
  let text = '';
  let exit: { reason: string } | null = null;
  const waits = createWaits();
  const decoder = new TextDecoder();
  socket.on('shell:output', (p: { data: ArrayBuffer | Uint8Array; reset?: boolean }) => {
    if (p.reset) text = '';
    text += decoder.decode(p.data instanceof Uint8Array ? p.data : new Uint8Array(p.data));
    waits.changed();
  });
  socket.on('shell:exit', (p: { reason: string }) => {
    exit = p;
    waits.changed();
  });
  const waitFor = <T>(what: string, probe: () => T | null | undefined | false) =>
    waits.waitFor({ probe, timeoutMs: SHELL_TIMEOUT_MS, timedOut: () => `timed out waiting for ${what}; shell printed:\n${text.slice(-2000)}` });
  return {
    socket,
    text: () => text,
    open: (payload: { machineId: string; viewerId: string; cwd?: string }) => emitAck(socket, 'shell:open', { cols: 100, rows: 30, ...payload }) as Promise<ShellAck>,
    type: (shellId: string, data: string) => emitAck(socket, 'shell:input', { shellId, data }),
    /** Resolves with the first match of `pattern` in the output. */
    waitForText: (pattern: RegExp) => waitFor(String(pattern), () => pattern.exec(text)),
    waitForExit: () => waitFor('shell:exit', () => exit),
  };
}

const viewerId = () => randomUUID().replace(/-/g, '');

async function shellWorld(options: { hubShell: boolean; daemonShell: boolean; env?: Record<string, string> }) {
  const stage = await startStage(defer, { hub: { shell: options.hubShell } });
  const daemon = await startDaemon({
    hub: stage.hub,
    sandbox: stage.sandbox,
    args: options.daemonShell ? ['--allow-shell'] : [],
    env: { SHELL: '/bin/sh', ...options.env },
  });
  defer(() => daemon.stop());
  return { ...stage, daemon, machineId: daemon.machineId() };
}

describe('web shells', () => {
  it('are off unless the hub enables them (clear error; /healthz and /api/config say so)', async () => {
    const { hub, machineId } = await shellWorld({ hubShell: false, daemonShell: true });
    const viewer = await shellViewer(defer, hub, hub.token);
    const ack = await viewer.open({ machineId, viewerId: viewerId() });
    expect(ack).toMatchObject({ ok: false, code: 'forbidden' });
    expect(ack.error).toContain('tether hub --enable-shell');
    expect(await (await fetch(`${hub.url}/healthz`)).json()).toMatchObject({ shell: false });
    expect(await (await fetch(`${hub.url}/api/config`, { headers: { authorization: `Bearer ${hub.token}` } })).json()).toEqual({ shell: false });
  });

  it('are off on a machine whose daemon was not started with --allow-shell', async () => {
    const { hub, machineId } = await shellWorld({ hubShell: true, daemonShell: false });
    expect((await hub.store.listMachines({ namespace: hub.namespace }))[0]).toMatchObject({ id: machineId, shell: false });
    const viewer = await shellViewer(defer, hub, hub.token);
    const ack = await viewer.open({ machineId, viewerId: viewerId() });
    expect(ack).toMatchObject({ ok: false, code: 'forbidden' });
    expect(ack.error).toContain('--allow-shell');
  });

  it('one shell per viewer: two viewers get two shells, the same viewer id reattaches to its own', async () => {
    const { hub, machineId, sandbox } = await shellWorld({ hubShell: true, daemonShell: true });
    expect(await (await fetch(`${hub.url}/api/config`, { headers: { authorization: `Bearer ${hub.token}` } })).json()).toEqual({ shell: true });
    const idA = viewerId();
    const idB = viewerId();

    const a = await shellViewer(defer, hub, hub.token);
    const openA = await a.open({ machineId, viewerId: idA, cwd: sandbox.cwd });
    expect(openA).toMatchObject({ ok: true, reattached: false });
    const shellA = openA.shellId!;
    await a.type(shellA, 'echo sum=$((40+2)); pwd\r');
    await a.waitForText(/sum=42/);
    await a.waitForText(new RegExp(sandbox.cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    expect(await a.type(shellA, 'TETHER_MARK=alpha; export TETHER_MARK; echo "set:[$TETHER_MARK]"\r')).toMatchObject({ ok: true });
    await a.waitForText(/set:\[alpha\]/);

    // A second device: its own shell, without A's variable; it cannot type into A's shell.
    const b = await shellViewer(defer, hub, hub.token);
    const openB = await b.open({ machineId, viewerId: idB });
    expect(openB).toMatchObject({ ok: true, reattached: false });
    expect(openB.shellId).not.toBe(shellA);
    await b.type(openB.shellId!, 'echo "b-sees:[$TETHER_MARK]"\r');
    await b.waitForText(/b-sees:\[\]/);
    expect(await b.type(shellA, 'echo pwned\r')).toMatchObject({ ok: false, code: 'not_found' });
    expect(await emitAck(b.socket, 'shell:close', { shellId: shellA })).toMatchObject({ ok: false, code: 'not_found' });
    expect(a.text()).not.toContain('pwned');

    // A leaves (tab closed); the same viewer id from a new socket gets the same shell back, with its screen.
    a.socket.close();
    const a2 = await shellViewer(defer, hub, hub.token);
    const reopen = await a2.open({ machineId, viewerId: idA });
    expect(reopen).toMatchObject({ ok: true, reattached: true, shellId: shellA });
    await a2.waitForText(/set:\[alpha\]/);
    await a2.type(shellA, 'echo "again:[$TETHER_MARK]"\r');
    await a2.waitForText(/again:\[alpha\]/);

    // Close kills it; reopening then starts a fresh shell.
    expect(await emitAck(a2.socket, 'shell:close', { shellId: shellA })).toMatchObject({ ok: true });
    expect(await a2.waitForExit()).toMatchObject({ reason: 'closed' });
    const fresh = await a2.open({ machineId, viewerId: idA });
    expect(fresh).toMatchObject({ ok: true, reattached: false, shellId: shellA });
    await a2.type(shellA, 'echo "fresh:[$TETHER_MARK]"\r');
    await a2.waitForText(/fresh:\[\]/);
  });

  it('another namespace and a share link cannot open or touch a shell', async () => {
    const { hub, machineId } = await shellWorld({ hubShell: true, daemonShell: true });
    const a = await shellViewer(defer, hub, hub.token);
    const id = viewerId();
    const open = await a.open({ machineId, viewerId: id });
    expect(open.ok).toBe(true);
    const shellId = open.shellId!;

    const beta = await shellViewer(defer, hub, await hub.createToken('beta'));
    // Same machine id and even the same viewer id: the machine is not in beta's namespace.
    expect(await beta.open({ machineId, viewerId: id })).toMatchObject({ ok: false, code: 'not_found' });
    for (const [event, payload] of [
      ['shell:input', { shellId, data: 'echo pwned\r' }],
      ['shell:resize', { shellId, cols: 20, rows: 5 }],
      ['shell:close', { shellId }],
      ['shell:leave', { shellId }],
    ] as const) {
      expect(await emitAck(beta.socket, event, payload), event).toMatchObject({ ok: false, code: 'not_found' });
    }

    // A share link (of a session in the same namespace) is read-only and never reaches a shell.
    const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
    defer(() => runner.close());
    const sessionId = randomUUID();
    expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/tmp', launchKind: 'pty' })).ok).toBe(true);
    const res = await fetch(`${hub.url}/api/sessions/${sessionId}/share`, {
      method: 'POST',
      headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ expiresInSec: 600 }),
    });
    const link = (await res.json()) as { token: string };
    const guest = await shellViewer(defer, hub, link.token);
    expect(await guest.open({ machineId, viewerId: id })).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await emitAck(guest.socket, 'shell:input', { shellId, data: 'echo pwned\r' })).toMatchObject({ ok: false, code: 'forbidden' });

    await a.type(shellId, 'echo still=$((1+1))\r');
    await a.waitForText(/still=2/);
    expect(a.text()).not.toContain('pwned');
  });

  it('a shell whose viewer stays away past the idle time is killed', async () => {
    const { hub, machineId, daemon } = await shellWorld({ hubShell: true, daemonShell: true, env: { TETHER_SHELL_IDLE_MS: '1000' } });
    const a = await shellViewer(defer, hub, hub.token);
    const open = await a.open({ machineId, viewerId: viewerId() });
    expect(open.ok).toBe(true);
    await a.type(open.shellId!, 'echo pid=$$\r');
    const pid = Number((await a.waitForText(/pid=(\d+)/))[1]);
    expect(isAlive(pid)).toBe(true);
    a.socket.close();
    await daemon.waitForOutput(/web shell \w+ ended \(no viewer for 1 s\)/, SHELL_TIMEOUT_MS);
    expect(isAlive(pid)).toBe(false);
  });
});
