// cli.ts: the `/cli` namespace, spoken by session runners and daemons with an access token.
// Each handler: validate (peers/handle.ts) → call the domain room → ack; the rooms publish facts.
//
//   runner ─register/update/end/message:append/approval:*─► sessions/ approvals/ ─► store, facts
//   daemon ─machine:register/runner:exited/shell:*──────► machines/ (and project-rules/: removals it has waiting)
//   runner ◄─prompt:deliver/approval:answered/session:abort…─ runnerRoom(ns, session) (sockets/rooms.ts)
//
// Invariant: every event acts only on sessions of the socket's namespace; a session id owned by
// another namespace is `forbidden` at register and `not_found` everywhere else.
import { ackError, CliEventSchemas, runnerRoom, toBytes, type CliAcks } from '@tether/shared';
import type { Sessions } from '../sessions/lifecycle.ts';
import type { Approvals } from '../approvals/approvals.ts';
import { RUNNER_GONE_GRACE_MS } from '../approvals/runner-gone.ts';
import type { Machines } from '../machines/machines.ts';
import type { RemoteSessions } from '../machines/remote-sessions.ts';
import type { ShellBridge } from '../machines/shells.ts';
import type { Outside } from '../outside/outside.ts';
import type { ProjectRules } from '../project-rules/project-rules.ts';
import type { TerminalRegistry } from '../terminal/registry.ts';
import { handleSocketEvents } from '../peers/handle.ts';
import type { HubSocket } from '../peers/peer.ts';
import { echoMark } from '../terminal/echo-trace.ts';
import { runnerPresent } from '../peers/runner-present.ts';

const NO_SESSION = 'no such session';

export type CliDomain = {
  sessions: Sessions;
  approvals: Approvals;
  machines: Machines;
  remote: RemoteSessions;
  shells: ShellBridge;
  terminals: TerminalRegistry;
  outside: Outside;
  rules: ProjectRules;
  onError: (event: string, error: unknown) => void;
  /** How long a vanished runner may take to come back before its pending requests are withdrawn. */
  runnerGoneGraceMs?: number;
};

export function bindCliSocket(socket: HubSocket, domain: CliDomain): void {
  const { sessions, approvals, terminals } = domain;
  const ns = socket.data.caller.namespace;
  // Sessions this socket registered were checked then; terminal bytes skip the per-chunk lookup.
  const owns = async (sessionId: string) => socket.data.sessions.has(sessionId) || (await sessions.get(ns, sessionId)) !== null;
  const ifOwned = async <T extends object>(sessionId: string, act: () => T | Promise<T>) => ((await owns(sessionId)) ? act() : ackError('not_found', NO_SESSION));

  handleSocketEvents<typeof CliEventSchemas, CliAcks>({
    socket,
    schemas: CliEventSchemas,
    onError: domain.onError,
    handlers: {
      'session:register': async (registration) => {
        const ack = await sessions.register(ns, registration);
        if (!ack.ok) return ack;
        await socket.join(runnerRoom(ns, registration.id));
        socket.data.sessions.add(registration.id);
        // Prompts queued while this runner was away.
        for (const prompt of await sessions.runnerJoined(ns, ack.session)) {
          socket.emit('prompt:deliver', sessions.delivery(prompt));
        }
        // After the ack (scheduled past every await above, and counted then): the runner only acts
        // on these once it knows it is registered. A viewer that joined while this handler awaited
        // the store (a failover: viewers wait on the runner's new hub) is counted too.
        setImmediate(() => {
          const room = terminals.find(ns, registration.id);
          const count = room && !room.ended ? room.viewerCount : 0;
          socket.emit('terminal:viewers', { sessionId: registration.id, count });
          if (count > 0) socket.emit('terminal:snapshot-request', { sessionId: registration.id });
          // The rules of its folder it has work for (accepted, or revoked and still in the file).
          void domain.rules.syncSession(ns, ack.session).catch((error: unknown) => domain.onError('rules:sync', error));
        });
        return ack;
      },
      'session:update': ({ sessionId, patch }) => sessions.update(ns, sessionId, patch),
      'session:end': (end) => sessions.end(ns, end),
      'session:attention': (attention) => ifOwned(attention.sessionId, () => sessions.attention(ns, attention)),
      'session:command-finished': (finished) => ifOwned(finished.sessionId, () => sessions.commandFinished(ns, finished)),
      'message:append': ({ sessionId, messages }) => sessions.appendMessages(ns, sessionId, messages),
      'prompt:status': ({ sessionId, promptId, status, reason }) => sessions.promptStatus(ns, { sessionId, promptId, status, reason }),
      'session:commands': (report) => sessions.commandsReported(ns, report),
      'approval:request': async (request) => {
        const ack = await approvals.request(ns, request);
        if (ack.ok && ack.answered) socket.emit('approval:answered', { sessionId: request.sessionId, requestId: request.id, answer: ack.answered });
        return ack.ok ? { ok: true } : ack;
      },
      'approval:withdraw': ({ sessionId, requestId }) => approvals.withdraw(ns, { sessionId, requestId }),
      'approval:desk-answer': ({ sessionId, requestId, answer, device }) => approvals.deskAnswer(ns, { sessionId, requestId, answer, device }),
      'approval:dialog-outcome': (outcome) => ifOwned(outcome.sessionId, () => approvals.dialogOutcome(ns, outcome)),
      'terminal:output': (output) => (echoMark('hub_out'), ifOwned(output.sessionId, () => (terminals.get(ns, output.sessionId).output(output.offset, toBytes(output.data)), { ok: true as const }))),
      'terminal:snapshot': (snapshot) => ifOwned(snapshot.sessionId, () => (terminals.get(ns, snapshot.sessionId).snapshot(snapshot), { ok: true as const })),
      'terminal:size': (report) => ifOwned(report.sessionId, () => (terminals.get(ns, report.sessionId).ptyResized(report), { ok: true as const })),
      'machine:register': async (info) => {
        if (socket.data.machineId && socket.data.machineId !== info.id) return ackError('conflict', 'this connection already registered another machine');
        const first = socket.data.machineId === null;
        socket.data.machineId = info.id;
        await domain.machines.registered(ns, socket, info, first);
        // After this ack: the daemon hears the machine's switch for finding conversations.
        if (socket.data.client === 'daemon') {
          setImmediate(() => domain.outside.daemonRegistered(ns, info.id, socket));
          // Revoked rules still in a file of this machine where no runner is there to remove them.
          setImmediate(() => void domain.rules.daemonRegistered(ns, info.id).catch((error: unknown) => domain.onError('rules: removals at a daemon\'s registration', error)));
        }
        return { ok: true };
      },
      'runner:exited': (exit) => domain.remote.runnerExited(ns, socket.data.machineId, exit),
      'shell:output': (output) => domain.shells.output(socket, output),
      'shell:exit': (exit) => domain.shells.exit(socket, exit),
      'rules:report': (report) => ifOwned(report.sessionId, () => domain.rules.report(ns, report)),
      'outside:index': (index) => domain.outside.indexed(ns, socket.data.client === 'daemon' ? socket.data.machineId : null, index),
    },
  });

  socket.on('disconnect', () => {
    // A runner that does not come back within the grace is dead: what it left pending is withdrawn.
    approvals.runnerGone({
      namespace: ns,
      sessionIds: socket.data.sessions,
      graceMs: domain.runnerGoneGraceMs ?? RUNNER_GONE_GRACE_MS,
      // The runner may have come back through another hub: ask every hub (unsure = present).
      runnerPresent: (sessionId) => runnerPresent(socket.nsp, ns, sessionId),
    });
    // Sessions stay live: the runner reconnects and re-registers. Only the machine goes offline.
    domain.shells.daemonGone(socket);
    if (socket.data.machineId) domain.machines.left(ns, socket.data.machineId, socket);
  });
}
