// world.ts (harness/journey): one world per journey row, shared by every step of that row: the row's
// stage (fake API + sandbox), a hub, a daemon on the sandbox's machine (reviews start through it),
// `tether <agent>` at a desk in the daemon's TETHER_HOME (so its session belongs to that machine) or,
// for a row tether runs headless only, the agent started from the phone through that daemon, a phone
// watching the session and a plain phone socket. `view` is how the steps see the agent: its screen at
// the desk, or (headless) the session and its chat. The project folder is a git repository with
// one committed file, `notes.txt`, which the approval step changes: the review's diff.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { git } from '../../../cli/src/testing/git-repo.ts';
import type { Defer } from '../cleanups.ts';
import { spawnWatched, startDaemon, type DaemonHandle } from '../daemon.ts';
import { startHub, type HubHandle } from '../hub.ts';
import { chatText, startRunner, watchSession, type RunnerHandle, type SessionWatch } from '../runner.ts';
import { connectPhone } from '../world.ts';
import type { AgentStage, HeadlessJourneyRow, JourneyRow, PtyJourneyRow } from './row.ts';

/** What notes.txt says when committed. */
export const NOTES_COMMITTED = 'desk\n';

/** How a step sees the agent, at a desk or not. */
export type AgentView = {
  /** `text` on the desk's screen (PTY) or in a whole message of the chat (headless). */
  shows(text: string, options?: { timeoutMs?: number }): Promise<void>;
  /** Ready for the next turn: its idle input on screen (PTY), the session idle (headless). */
  ready(): Promise<void>;
  /** A reply under way: `marker` drawn (PTY), or the session thinking (headless: its chat has a
   *  message only once it is whole). */
  replying(marker: string): Promise<void>;
  /** Everything it showed so far. */
  text(): string;
  /** Once ended: the runner's exit code (PTY); headless, the session's status. */
  ended(): Promise<number | string | undefined>;
};

export type JourneyWorld = AgentStage & {
  row: JourneyRow;
  hub: HubHandle;
  daemon: DaemonHandle;
  sessionId: string;
  /** The desk (PTY rows only). */
  runner: RunnerHandle | null;
  view: AgentView;
  /** Watches the row's session. */
  phone: SessionWatch;
  /** Starts reviews, lists them. */
  socket: Socket;
};

export async function startJourneyWorld(defer: Defer, row: JourneyRow): Promise<JourneyWorld> {
  const stage = await row.stage(defer);
  const { cwd } = stage.sandbox;
  git(cwd, 'init', '-q');
  writeFileSync(join(cwd, 'notes.txt'), NOTES_COMMITTED);
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '-m', 'first');
  const hub = await startHub();
  defer(() => hub.stop());
  const daemon = await startDaemon({ hub, sandbox: stage.sandbox, env: stage.binEnv });
  defer(() => daemon.stop());
  const socket = await connectPhone(defer, hub);
  const started = row.launchKind === 'pty' ? await atDesk({ defer, hub, daemon, stage, row }) : await fromPhone({ defer, hub, daemon, stage, row, socket });
  return { ...stage, row, hub, daemon, socket, ...started };
}

type Started = Pick<JourneyWorld, 'sessionId' | 'runner' | 'phone' | 'view'>;
type StartParts = { defer: Defer; hub: HubHandle; daemon: DaemonHandle; stage: AgentStage };

async function atDesk(o: StartParts & { row: PtyJourneyRow }): Promise<Started> {
  const runner = startRunner({ hub: o.hub, sandbox: o.stage.sandbox, agent: o.row.agent, home: o.daemon.home, ...o.row.runner });
  o.defer(() => runner.stop());
  const phone = await watchSession({ hub: o.hub, sessionId: runner.sessionId, timeoutMs: 45_000 });
  o.defer(() => phone.stop());
  const view: AgentView = {
    shows: async (text, options) => void (await runner.waitForScreen(text, options)),
    ready: async () => void (await runner.waitForScreen(o.row.idle)),
    replying: async (marker) => void (await runner.waitForScreen(marker, { timeoutMs: 30_000 })),
    text: () => runner.screenText(),
    ended: () => runner.exited,
  };
  return { sessionId: runner.sessionId, runner, phone, view };
}

async function fromPhone(o: StartParts & { row: HeadlessJourneyRow; socket: Socket }): Promise<Started> {
  const payload = { machineId: o.daemon.machineId(), cwd: o.stage.sandbox.cwd, agent: o.row.agent, launchKind: 'headless', model: o.row.startModel };
  const { sessionId, watch: phone } = await spawnWatched(o.defer, { hub: o.hub, phone: o.socket, payload, what: o.row.agent });
  const chat = () => phone.messages().map(chatText).join('\n');
  const view: AgentView = {
    shows: async (text, options) => void (await phone.waitFor(() => chat().includes(text), { what: `"${text}" in chat`, timeoutMs: options?.timeoutMs ?? 45_000 })),
    ready: async () => void (await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle', timeoutMs: 45_000 })),
    replying: async () => void (await phone.waitFor(() => phone.session()?.status === 'thinking', { what: 'thinking', timeoutMs: 30_000 })),
    text: chat,
    ended: async () => phone.session()?.status,
  };
  return { sessionId, runner: null, phone, view };
}

/** What a failed step prints: the desk's screen, the requests the phone heard, the runner's log. */
export function describeWorld(w: JourneyWorld | undefined): string {
  if (!w) return '[journey] no world: it failed to start';
  // A headless session's runner logs beside the daemon's, in the daemon's home.
  const logs = join(w.runner?.home ?? w.daemon.home, 'logs');
  const names = existsSync(logs) ? readdirSync(logs).filter((name) => name.endsWith('.log')) : [];
  const tail = names.map((name) => `${name}:\n${readFileSync(join(logs, name), 'utf8').slice(-3000)}`).join('\n');
  const requests = w.phone.requested.map((r) => ({ kind: r.kind, toolName: r.toolName, input: JSON.stringify(r.toolInput).slice(0, 200), resolved: w.phone.resolved.some((x) => x.requestId === r.id) }));
  return [
    `[journey ${w.row.agent}] ${w.runner ? 'screen' : 'chat'}:\n${w.view.text()}`,
    `[journey ${w.row.agent}] requests: ${JSON.stringify(requests, null, 1)}`,
    `[journey ${w.row.agent}] logs:\n${tail || '(none)'}`,
  ].join('\n');
}
