// attach.ts (harness): `tether attach` at a fake desk of a daemon world, whichever agent the world
// runs (daemon-attach for claude, codex-attach for Codex), and what a phone hears of the PTY's size
// while a desk is attached: the steps both agents' attach tests take the same way.
import type { Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { TerminalSizeNotice } from '@tether/shared';
import type { Defer } from './cleanups.ts';
import { startDesk, type DeskHandle } from './daemon.ts';
import type { SessionWatch } from './runner.ts';

export type AttachWorld = {
  hub: { url: string; token: string };
  sandbox: { cwd: string; env: Record<string, string> };
  daemon: { home: string };
};

/** `tether attach <sessionId>` (no id: the picker) as the daemon's user, on its hub, stopped by `defer`.
 *  `agentEnv` names the agent's binary (TETHER_CLAUDE_BIN or TETHER_CODEX_BIN). */
export function attachDesk(defer: Defer, o: { world: AttachWorld; sessionId: string; agentEnv: Record<string, string>; cols?: number; rows?: number }): DeskHandle {
  const { hub, sandbox, daemon } = o.world;
  const desk = startDesk({
    ...(o.cols !== undefined ? { cols: o.cols } : {}),
    ...(o.rows !== undefined ? { rows: o.rows } : {}),
    args: o.sessionId ? ['attach', o.sessionId] : ['attach'],
    cwd: sandbox.cwd,
    env: { ...sandbox.env, TETHER_HOME: daemon.home, TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, ...o.agentEnv },
  });
  defer(() => desk.stop());
  return desk;
}

/** Every terminal:size `phone` hears for the session from now on (subscribe it to hear any). */
export function sizeNotices(o: { phone: Socket; sessionId: string; watch: SessionWatch }): TerminalSizeNotice[] {
  const sizes: TerminalSizeNotice[] = [];
  o.phone.on('terminal:size', (notice: TerminalSizeNotice) => {
    if (notice.sessionId !== o.sessionId) return;
    sizes.push(notice);
    // Heard on the phone's socket, not the watch's: its waits re-check only when told.
    o.watch.changed();
  });
  return sizes;
}

/** Before its first turn an agent has no conversation to resume: attach says so and fails, and the
 *  headless session runs on untouched (the hub is not told of a conversation yet). */
export async function expectNoConversationToAttach(o: { sessionId: string; watch: SessionWatch; attach: (sessionId: string) => DeskHandle }): Promise<void> {
  expect(o.watch.session()?.agentSessionId).toBeNull();
  const early = o.attach(o.sessionId);
  expect(await early.exited).toBe(1);
  expect(early.output()).toContain('has no conversation yet');
  expect(o.watch.session()).toMatchObject({ launchKind: 'headless', status: 'idle' });
}

/** The hub knows a desk is attached, and the phone hears the desk own the PTY's size at `cols`×`rows`. */
export async function expectDeskOwnsSize(o: { watch: SessionWatch; sizes: TerminalSizeNotice[]; cols: number; rows: number }): Promise<void> {
  const { watch, sizes } = o;
  await watch.waitFor(() => watch.session()?.deskAttached === true, { what: 'deskAttached', timeoutMs: 30_000 });
  await watch
    .waitFor(() => sizes.find((n) => n.owner === 'desk' && n.cols === o.cols && n.rows === o.rows), { what: 'desk owns the size', timeoutMs: 30_000 })
    .catch((error: Error) => {
      throw new Error(`${error.message}; size notices heard: ${JSON.stringify(sizes)}`);
    });
}

/** Ctrl-] at the desk: it exits 0 saying it detached, and no desk is attached to the session or owns its size. */
export async function expectDetached(o: { desk: DeskHandle; watch: SessionWatch; sizes: TerminalSizeNotice[]; sessionId: string }): Promise<void> {
  const { desk, watch, sizes } = o;
  desk.write('\x1d');
  expect(await desk.exited).toBe(0);
  expect(desk.output()).toContain(`detached from ${o.sessionId}`);
  await watch.waitFor(() => watch.session()?.deskAttached === false, { what: 'desk detached', timeoutMs: 30_000 });
  await watch.waitFor(() => sizes.at(-1)?.owner !== 'desk', { what: 'size no longer owned by the desk', timeoutMs: 30_000 });
}
