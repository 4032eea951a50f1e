// browser-world.ts (harness): the world of a browser journey: a hub serving the built web app
// (web/dist) and one Chromium, started once for a describe block and stopped after it, plus the
// sockets the tests open to play a runner (or a daemon, or a second client).
//
//   const world = useBrowserWorld();      // inside describe(): beforeAll starts, afterAll stops
//   const { runner, sessionId } = await world.runnerWithSession(token, { title: 'x', … });
//   const page = await world.signedInPage('phone', token);   // the QR-link login, on the list
//
// Invariant: afterAll closes every socket opened through the world, then the browser, then the hub.
// Kept apart from browser.ts, which the benches import without vitest.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Page } from 'playwright-core';
import { launchBrowser, loginWithQrLink, type BrowserHandle, type LaunchOptions, type ViewportName } from './browser.ts';
import { connectSocket, emitAck, startHub, type HubHandle, type SocketOptions } from './hub.ts';
import { agentFor } from '../../cli/src/agents/index.ts';
import { AgentKindSchema, DEFAULT_AGENT } from '@tether/shared';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WEB_DIST = join(REPO_ROOT, 'web', 'dist');

/** Throws when web/dist lacks `file` (the tests never build it) or is older than what it is built
 *  from: web/src and shared/src (the protocol schemas are compiled into the bundle). A stale bundle
 *  tests old code: an old DialogInput schema once rejected a field the runner now sends, and three
 *  dialog tests failed for a reason no product change could fix. */
export function requireBuiltWeb(file = 'index.html'): void {
  const built = join(WEB_DIST, file);
  if (!existsSync(built)) {
    throw new Error(`web/dist/${file} is missing: build the web app first (cd web && bun run build; npm test does it).`);
  }
  const sources = Math.max(newestMtime(join(REPO_ROOT, 'web', 'src')), newestMtime(join(REPO_ROOT, 'shared', 'src')));
  if (sources > statSync(built).mtimeMs + 1000) {
    throw new Error('web/dist is older than web/src or shared/src: rebuild it (cd web && bun run build; npm test does it) to test current code.');
  }
}

function newestMtime(dir: string): number {
  // Small tree: a plain recursive walk is fine.
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export type BrowserWorld = {
  /** The hub serving web/dist (set in beforeAll). */
  readonly hub: HubHandle;
  /** The shared Chromium (set in beforeAll). */
  readonly browser: BrowserHandle;
  /** A socket.io client on this hub (a runner on /cli by default), closed in afterAll. */
  connect(options: Omit<SocketOptions, 'url' | 'nsp'> & { nsp?: SocketOptions['nsp'] }): Promise<Socket>;
  /** `session:register` from `runner` (a fresh id unless given) and expects the ack ok; returns the id.
   *  A PTY session in /home/dev/src/tether unless `session` says otherwise. It states its agent's
   *  capabilities as a real runner does, unless `capabilities` is given (null: a runner older than them). */
  registerSession(runner: Socket, session: Record<string, unknown> & { id?: string }): Promise<string>;
  /** A runner socket of `token` that has registered one session. */
  runnerWithSession(token: string, session: Record<string, unknown> & { id?: string }): Promise<{ runner: Socket; sessionId: string }>;
  /** A fresh page at `viewport`, signed in with the QR link of `token` (on the session list). */
  signedInPage(viewport: ViewportName, token: string): Promise<Page>;
};

/** Call inside a describe(): starts the hub and browser in beforeAll, stops them in afterAll.
 *  `browser`: extra launch switches for this block only (the voice test's fake microphone). */
export function useBrowserWorld(options: { requires?: string; hub?: Omit<Parameters<typeof startHub>[0], 'webDist'>; browser?: LaunchOptions } = {}): BrowserWorld {
  let hub: HubHandle | undefined;
  let browser: BrowserHandle | undefined;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    requireBuiltWeb(options.requires);
    hub = await startHub({ ...options.hub, webDist: WEB_DIST });
    browser = await launchBrowser(options.browser);
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await browser?.stop();
    await hub?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error('the browser world starts in beforeAll: use it inside a test');
    return value;
  };
  const world: BrowserWorld = {
    get hub() {
      return started(hub);
    },
    get browser() {
      return started(browser);
    },
    async connect({ nsp = '/cli', ...rest }) {
      const socket = await connectSocket({ url: world.hub.url, nsp, ...rest });
      sockets.push(socket);
      return socket;
    },
    async registerSession(runner, { id = randomUUID(), ...session }) {
      const agent = AgentKindSchema.parse(session.agent ?? DEFAULT_AGENT);
      const registered = await emitAck(runner, 'session:register', { id, cwd: '/home/dev/src/tether', launchKind: 'pty', capabilities: agentFor(agent).capabilities, ...session });
      expect(registered.ok).toBe(true);
      return id;
    },
    async runnerWithSession(token, session) {
      const runner = await world.connect({ token });
      const sessionId = await world.registerSession(runner, session);
      return { runner, sessionId };
    },
    async signedInPage(viewport, token) {
      const page = await world.browser.newPage({ viewport });
      await loginWithQrLink(page, { hubUrl: world.hub.url, token });
      return page;
    },
  };
  return world;
}
