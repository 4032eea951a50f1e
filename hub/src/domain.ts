// domain.ts: the domain rooms of one hub, built for createHub (main.ts, the composition root) and
// nowhere else: sessions, approvals, machines (daemons, shells, remote starts), terminals (rooms,
// viewers), workspaces (a session's files, read through its runner), attachments and, with several
// hubs, the cluster bus and the hub-to-hub terminal link. It subscribes readiness and the cluster to
// the fact bus; the socket rooms subscribed before it (tabs hear a fact first), web push after.
import type { Server, Socket } from 'socket.io';
import { DEFAULT_UNATTENDED_DAILY_CAP, type Namespace } from '@tether/shared';
import type { Store } from './store/store.ts';
import type { FactBus } from './facts/facts.ts';
import type { RunnerCommands } from './facts/runners.ts';
import { createSessions } from './sessions/lifecycle.ts';
import { createSessionReadiness } from './sessions/readiness.ts';
import { createApprovals } from './approvals/approvals.ts';
import { createAttachments } from './attachments/attachments.ts';
import { createDaemonDirectory } from './machines/daemons.ts';
import { createMachines } from './machines/machines.ts';
import { createRemoteSessions } from './machines/remote-sessions.ts';
import { createWorktrees } from './worktrees/worktrees.ts';
import { createOutside } from './outside/outside.ts';
import { createShellBridge } from './machines/shells.ts';
import { createTerminalRegistry } from './terminal/registry.ts';
import type { RunnerPort } from './terminal/room.ts';
import { storedFinalScreens } from './terminal/final-screens.ts';
import { createTerminalViewers } from './terminal/viewers.ts';
import { createClusterBus } from './cluster/bus.ts';
import { createTerminalLinkServer } from './cluster/terminal-link.ts';
import { spreadFacts } from './cluster/spread.ts';
import { createWorkspace } from './workspace/workspace.ts';
import { createReviews } from './reviews/reviews.ts';
import { followReviews } from './reviews/follow.ts';
import { createGitActions } from './git-actions/git-actions.ts';
import { createFileEdits } from './file-edits/file-edits.ts';
import { createFind } from './find/find.ts';
import { createSchedules } from './schedules/schedules.ts';
import { createScheduleRuns } from './schedules/runs.ts';
import { systemClock, type Clock } from './schedules/clock.ts';
import { createProjectRules } from './project-rules/project-rules.ts';
import { createUsageLimits } from './usage-limits/usage-limits.ts';
import { DEFAULT_LIMIT_TIMING, type LimitTiming } from './usage-limits/rule.ts';
import { createUnattendedGuard } from './unattended/unattended.ts';

/** What the socket rooms (sockets/rooms.ts) lend the domain: commands to runners and the ways
 *  terminal bytes and viewer counts reach sockets. */
export type SocketPorts = {
  runners: RunnerCommands;
  terminalFanout(linkOf: (viewerId: string, sessionId: string) => Socket | null): (ns: Namespace, sessionId: string) => (viewerIds: string[], offset: number, data: Uint8Array) => void;
  terminalRunner(ns: Namespace, sessionId: string): RunnerPort;
};

export function createDomain(options: {
  store: Store;
  facts: FactBus;
  io: Server;
  ports: SocketPorts;
  onError: (what: string, error: unknown) => void;
  /** This hub's URL ('' without a cluster). */
  hubUrl: () => string;
  /** Several hubs: this hub's URL and the secret hubs link to each other with. */
  cluster: { url: () => string; linkSecret: string } | null;
  shell: boolean;
  terminalLogBytes?: number;
  terminalMemoryBytes?: number;
  /** What schedules read the time from, and how often they look (tests move a clock by hand). */
  schedules?: { clock?: Clock; tickMs?: number };
  /** Sessions at their usage limit: when tether continues them (tests make it short), and whether it
   *  does for a session the person chose nothing for while its namespace chose no default either. */
  limits?: { timing?: Partial<LimitTiming>; continueByDefault?: boolean };
  /** The unattended guard's cap for a namespace that chose none (shared unattended.ts). */
  unattended?: { defaultCap?: number };
}) {
  const { store, facts, io, ports, onError } = options;
  const runners = ports.runners;
  const web = io.of('/web');
  const cli = io.of('/cli');
  const bus = createClusterBus({ io, enabled: options.cluster !== null, onError });
  const readiness = createSessionReadiness();
  const screens = storedFinalScreens({ store });
  const terminals = createTerminalRegistry({
    ...(options.terminalLogBytes !== undefined ? { maxBytesPerTerminal: options.terminalLogBytes } : {}),
    ...(options.terminalMemoryBytes !== undefined ? { terminalMemoryBytes: options.terminalMemoryBytes } : {}),
    finalScreens: screens,
    fanout: ports.terminalFanout((viewerId, sessionId) => links?.linkOf(viewerId, sessionId) ?? null),
    runnerPort: (ns, sessionId) => ports.terminalRunner(ns, sessionId),
  });
  const sessions = createSessions({ store, facts, runners, terminals, hubUrl: options.hubUrl });
  const approvals = createApprovals({ store, facts, runners });
  const attachments = createAttachments({ store });
  const daemons = createDaemonDirectory({ cli, clustered: options.cluster !== null });
  const machines = createMachines({ store, facts, daemons, onError });
  const viewers = createTerminalViewers({ terminals, runners, sessionOf: sessions.get, web, cli, cluster: options.cluster, onError });
  const links = options.cluster
    ? createTerminalLinkServer({ nsp: io.of('/hub'), cli, linkSecret: options.cluster.linkSecret, sessionOf: sessions.get, terminals, runners, onError })
    : null;
  const remote = createRemoteSessions({ sessions, machines, daemons, readiness, runners, bus });
  const shells = createShellBridge({ enabled: options.shell, machines, daemons, web, bus });
  const workspace = createWorkspace({ sessionOf: sessions.get, runners });
  const follower = followReviews({ store, facts, onError });
  const reviews = createReviews({ store, facts, sessions, machines, remote, workspace, follower });
  const git = createGitActions({ sessionOf: sessions.get, runners, store, facts });
  const edits = createFileEdits({ sessions, runners });
  const find = createFind({ sessionOf: sessions.get, store, terminals, finalScreen: screens.load, runners });
  const worktrees = createWorktrees({ sessions, machines, daemons, store, facts });
  const outside = createOutside({ store, facts, machines, daemons, remote, onError });
  const clock = options.schedules?.clock ?? systemClock;
  const schedules = createSchedules({ store, facts, sessions, machines, clock });
  const guardDefaults = { defaultCap: options.unattended?.defaultCap ?? DEFAULT_UNATTENDED_DAILY_CAP, defaultContinue: options.limits?.continueByDefault ?? false };
  const unattended = createUnattendedGuard({ store, facts, ...guardDefaults, now: () => clock.now() });
  const scheduleRuns = createScheduleRuns({ store, facts, sessions, machines, remote, runners, clock, guard: unattended, onError });
  const stopScheduleRuns = scheduleRuns.start(options.schedules?.tickMs);
  // What a revoked device made goes with it (the other hubs' ticks also refuse a revoked maker's run).
  facts.on('tokens.revoked', ({ tokenIds }) => void schedules.tokensRevoked(tokenIds).catch((error) => onError('schedules of revoked tokens', error)));
  facts.on('tokens.revoked', (fact) => void sessions.tokensRevoked(fact).catch((error) => onError('held prompts of revoked tokens', error)));
  const rules = createProjectRules({ store, facts, runners, daemons, onError });
  const limits = createUsageLimits({
    store,
    facts,
    queuePrompt: (ns, send) => sessions.queuePrompt(ns, send),
    timing: { ...DEFAULT_LIMIT_TIMING, ...options.limits?.timing },
    guard: unattended,
    onError,
  });

  // A runner (re)registered here: viewers of its session here (linked ones, and on other hubs
  // through the cluster) move their stream to this hub.
  facts.on('terminal.started', ({ namespace, sessionId, hubUrl }) => viewers.moved(namespace, sessionId, hubUrl));
  spreadFacts({ facts, bus, readiness, viewers });
  // Every session.updated settles readiness waits (spawn, stop).
  facts.on('session.updated', ({ namespace, session }) => readiness.sessionUpdated(namespace, session));
  // A person's allow from afar is counted; a revoked device's rules go with it.
  facts.on('approval.allowed', ({ namespace, request, answer }) => void rules.allowed(namespace, { request, answer }).catch((error: unknown) => onError('rules: count an allow', error)));
  facts.on('tokens.revoked', (fact) => void rules.tokensRevoked(fact).catch((error: unknown) => onError('rules: a revoked device', error)));
  limits.listen(facts);
  // Timers live in memory: the limits the store holds are followed again when this hub starts.
  void limits.rearm().catch((error: unknown) => onError('usage limits at start', error));

  return {
    facts,
    bus,
    sessions,
    approvals,
    attachments,
    machines,
    remote,
    shells,
    terminals,
    viewers,
    workspace,
    reviews,
    git,
    edits,
    find,
    worktrees,
    outside,
    schedules,
    scheduleRuns,
    rules,
    limits,
    unattended,
    stop(): void {
      stopScheduleRuns();
      readiness.stop();
      limits.stop();
      viewers.stop();
    },
  };
}
