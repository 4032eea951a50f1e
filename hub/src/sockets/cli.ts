// cli.ts: the `/cli` namespace, spoken by session runners and daemons with an access token.
// Each handler: validate (handle.ts) → act on a room → ack → broadcast.
//
//   runner ─register/update/end/message:append/approval:*─► hub ─► store
//                                                            └─► /web rooms (session:updated, message:added, …)
//   runner ◄─prompt:deliver/approval:answered/session:abort…─ runnerRoom(ns, session) ◄─ /web
//
// Invariant: every event acts only on sessions of the socket's namespace; a session id owned by
// another namespace is `forbidden` at register and `not_found` everywhere else.
import {
  ackError,
  CliEventSchemas,
  DIALOG_OUTCOME_REASON,
  isFinalStatus,
  toBytes,
  runnerRoom,
  type CliAcks,
  type Namespace,
} from '@tether/shared';
import type { Store } from '../store/store.ts';
import { endSession, patchSession, registerSession } from '../sessions/sessions.ts';
import { ingestChatMessages } from '../sessions/chat-ingest.ts';
import { queuedPrompts, updatePromptStatus } from '../sessions/prompt-relay.ts';
import type { MachineRegistry } from '../sessions/machines.ts';
import { requestApproval, withdrawApproval } from '../approvals/pending.ts';
import { answerAtDesk } from '../approvals/answer.ts';
import { RUNNER_GONE_GRACE_MS, watchRunnerGone } from '../approvals/runner-gone.ts';
import type { TerminalRegistry } from '../terminal/registry.ts';
import type { Broadcast } from './broadcast.ts';
import { handleSocketEvents, type HubSocket } from './handle.ts';
import type { DaemonDirectory } from './daemons.ts';
import type { createSessionControl } from './session-control.ts';
import type { ShellRelay } from './shells.ts';

const NO_SESSION = 'no such session';
/** Asking every hub whether a runner is back: one NOTIFY round trip, or a hub that just died. */
const RUNNER_LOOKUP_TIMEOUT_MS = 3_000;

export function bindCliSocket(options: {
  socket: HubSocket;
  store: Store;
  broadcast: Broadcast;
  machines: MachineRegistry;
  terminals: TerminalRegistry;
  onError: (event: string, error: unknown) => void;
  /** How long a vanished runner may take to come back before its pending requests are withdrawn. */
  runnerGoneGraceMs?: number;
  daemons: DaemonDirectory;
  control: ReturnType<typeof createSessionControl>;
  shells: ShellRelay;
  /** A runner registered a session here (its terminal's viewers on other hubs move here). */
  runnerRegistered: (ns: Namespace, sessionId: string) => void;
}): void {
  const { socket, store, broadcast, machines, terminals } = options;
  const ns = socket.data.caller.namespace;
  // Sessions this socket registered were checked then; terminal bytes skip the per-chunk lookup.
  const ownsSession = async (sessionId: string) =>
    socket.data.sessions.has(sessionId) || (await store.getSession({ namespace: ns, sessionId })) !== null;

  handleSocketEvents<typeof CliEventSchemas, CliAcks>({
    socket,
    schemas: CliEventSchemas,
    onError: options.onError,
    handlers: {
      'session:register': async (registration) => {
        const result = await registerSession({ store, namespace: ns, registration });
        if (result.kind === 'forbidden') return ackError('forbidden', 'session id belongs to another namespace');
        await socket.join(runnerRoom(ns, registration.id));
        socket.data.sessions.add(registration.id);
        // A (re)connected runner learns who watches; its bytes since the drop are gone, so viewers
        // get a fresh snapshot. A resumed session starts a new terminal.
        if (!isFinalStatus(result.session.status)) {
          await terminals.running(ns, registration.id);
          options.runnerRegistered(ns, registration.id);
        }
        broadcast.toNamespace(ns, 'session:updated', result.session);
        // Prompts queued while this runner was away.
        for (const prompt of await queuedPrompts({ store, namespace: ns, sessionId: registration.id })) {
          socket.emit('prompt:deliver', { sessionId: prompt.sessionId, promptId: prompt.id, text: prompt.text });
        }
        // After the ack (scheduled past every await above, and counted then): the runner only acts
        // on these once it knows it is registered. A viewer that joined while this handler awaited
        // the store (a failover: viewers wait on the runner's new hub) is counted too.
        setImmediate(() => {
          const room = terminals.find(ns, registration.id);
          const count = room && !room.ended ? room.viewerCount : 0;
          socket.emit('terminal:viewers', { sessionId: registration.id, count });
          if (count > 0) socket.emit('terminal:snapshot-request', { sessionId: registration.id });
        });
        return { ok: true, session: result.session };
      },
      'session:update': async ({ sessionId, patch }) => {
        const session = await patchSession({ store, namespace: ns, sessionId, patch });
        if (!session) return ackError('not_found', NO_SESSION);
        broadcast.toNamespace(ns, 'session:updated', session);
        return { ok: true, session };
      },
      'session:end': async (end) => {
        const ended = await endSession({ store, namespace: ns, end });
        if (!ended) return ackError('not_found', NO_SESSION);
        for (const resolution of ended.withdrawn) broadcast.toNamespace(ns, 'approval:resolved', resolution);
        for (const prompt of ended.dropped) broadcast.toNamespace(ns, 'prompt:updated', prompt);
        // The runner sent its final screen just before this; late viewers still see it.
        await terminals.ended(ns, end.sessionId);
        broadcast.toNamespace(ns, 'session:updated', ended.session);
        return { ok: true, session: ended.session };
      },
      'session:attention': async (attention) => {
        if (!(await ownsSession(attention.sessionId))) return ackError('not_found', NO_SESSION);
        broadcast.toNamespace(ns, 'session:attention', attention);
        return { ok: true };
      },
      'message:append': async ({ sessionId, messages }) => {
        const result = await ingestChatMessages({ store, namespace: ns, sessionId, messages });
        if (!result) return ackError('not_found', NO_SESSION);
        if (result.added.length > 0) {
          broadcast.toSession(ns, sessionId, { sessionId, messages: result.added });
          broadcast.toNamespace(ns, 'session:updated', result.session);
        }
        return { ok: true, added: result.added.length, lastSeq: result.lastSeq };
      },
      'prompt:status': async (update) => {
        const prompt = await updatePromptStatus({
          store,
          namespace: ns,
          sessionId: update.sessionId,
          promptId: update.promptId,
          status: update.status,
          reason: update.reason,
        });
        if (!prompt) return ackError('not_found', 'no such prompt');
        broadcast.toNamespace(ns, 'prompt:updated', prompt);
        return { ok: true };
      },
      'approval:request': async (request) => {
        const result = await requestApproval({ store, namespace: ns, request });
        switch (result.kind) {
          case 'not_found':
            return ackError('not_found', NO_SESSION);
          case 'added': {
            broadcast.toNamespace(ns, 'approval:requested', result.request);
            const session = await store.getSession({ namespace: ns, sessionId: request.sessionId });
            if (session) broadcast.toNamespace(ns, 'session:updated', session);
            return { ok: true };
          }
          case 'answered':
            socket.emit('approval:answered', { sessionId: request.sessionId, requestId: request.id, answer: result.answer });
            return { ok: true };
          case 'pending':
            return { ok: true };
          case 'withdrawn':
            // Re-sent after the hub withdrew it (runner was gone too long): ask under a new id.
            return ackError('gone', 'request was withdrawn');
          default: {
            const never: never = result;
            throw new Error(`unexpected ${String(never)}`);
          }
        }
      },
      'approval:withdraw': async ({ sessionId, requestId }) => {
        const result = await withdrawApproval({ store, namespace: ns, sessionId, requestId });
        if (result.kind === 'not_found') return ackError('not_found', 'no such request');
        if (result.kind === 'withdrawn') {
          broadcast.toNamespace(ns, 'approval:resolved', result.resolution);
          const session = await store.getSession({ namespace: ns, sessionId });
          if (session) broadcast.toNamespace(ns, 'session:updated', session);
        }
        return { ok: true };
      },
      'approval:desk-answer': async ({ sessionId, requestId, answer, device }) => {
        const result = await answerAtDesk({ store, namespace: ns, sessionId, requestId, answer, device });
        if (result.kind === 'not_found') return ackError('not_found', 'no such request');
        if (result.kind === 'won') {
          broadcast.toNamespace(ns, 'approval:resolved', result.resolution);
          const session = await store.getSession({ namespace: ns, sessionId });
          if (session) broadcast.toNamespace(ns, 'session:updated', session);
        }
        return { ok: true, won: result.kind === 'won', resolution: result.resolution };
      },
      'approval:dialog-outcome': async ({ sessionId, requestId, decision }) => {
        if (!(await ownsSession(sessionId))) return ackError('not_found', NO_SESSION);
        const resolution = await store.recordDialogOutcome({ namespace: ns, sessionId, requestId, answer: { decision, reason: DIALOG_OUTCOME_REASON } });
        if (!resolution) return ackError('not_found', "no request of this session was taken to claude's dialog under that id");
        broadcast.toNamespace(ns, 'approval:resolved', resolution);
        return { ok: true, resolution };
      },
      'terminal:output': async (output) => {
        if (!(await ownsSession(output.sessionId))) return ackError('not_found', NO_SESSION);
        terminals.get(ns, output.sessionId).output(output.offset, toBytes(output.data));
        return { ok: true };
      },
      'terminal:snapshot': async (snapshot) => {
        if (!(await ownsSession(snapshot.sessionId))) return ackError('not_found', NO_SESSION);
        terminals.get(ns, snapshot.sessionId).snapshot(snapshot);
        return { ok: true };
      },
      'terminal:size': async (report) => {
        if (!(await ownsSession(report.sessionId))) return ackError('not_found', NO_SESSION);
        terminals.get(ns, report.sessionId).ptyResized(report);
        return { ok: true };
      },
      'machine:register': async (info) => {
        if (socket.data.machineId && socket.data.machineId !== info.id) {
          return ackError('conflict', 'this connection already registered another machine');
        }
        const first = socket.data.machineId === null;
        socket.data.machineId = info.id;
        const machine = first
          ? await machines.connected({ namespace: ns, machine: info })
          : await store.upsertMachine({ namespace: ns, machine: info, now: Date.now() });
        if (socket.data.client === 'daemon') options.daemons.add(ns, info.id, socket);
        broadcast.toNamespace(ns, 'machine:updated', machine);
        return { ok: true };
      },
      ...options.control.cliHandlers(socket),
      ...options.shells.cliHandlers(socket),
    },
  });

  socket.on('disconnect', () => {
    // A runner that does not come back within the grace is dead: withdraw what it left pending.
    watchRunnerGone({
      store,
      namespace: ns,
      sessionIds: socket.data.sessions,
      graceMs: options.runnerGoneGraceMs ?? RUNNER_GONE_GRACE_MS,
      // The runner may have come back through another hub: ask every hub (unsure = present).
      runnerPresent: async (sessionId) => {
        if ((socket.nsp.adapter.rooms.get(runnerRoom(ns, sessionId))?.size ?? 0) > 0) return true;
        try {
          return (await socket.nsp.in(runnerRoom(ns, sessionId)).timeout(RUNNER_LOOKUP_TIMEOUT_MS).fetchSockets()).length > 0;
        } catch {
          return true;
        }
      },
      publish: ({ withdrawn, session }) => {
        for (const resolution of withdrawn) broadcast.toNamespace(ns, 'approval:resolved', resolution);
        if (session) broadcast.toNamespace(ns, 'session:updated', session);
      },
    });
    // Sessions stay live: the runner reconnects and re-registers. Only the machine goes offline.
    options.shells.daemonGone(socket);
    const machineId = socket.data.machineId;
    if (machineId) {
      options.daemons.remove(ns, machineId, socket);
      // The daemon may already be back through another hub (the balancer picks any).
      const settle = (online: boolean | null) => {
        machines
          .disconnected({ namespace: ns, machineId, onlineElsewhere: online !== false })
          .then((machine) => {
            if (machine) broadcast.toNamespace(ns, 'machine:updated', machine);
          })
          .catch((error: unknown) => options.onError('disconnect', error));
      };
      const online = options.daemons.anyOnline(ns, machineId);
      if (typeof online === 'boolean') settle(online);
      else void online.then(settle);
    }
  });
}
