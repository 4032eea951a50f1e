// web.ts: the `/web` namespace, spoken by browsers (web session) and CLI verbs that act like a phone
// (access token). Every socket joins its namespace room and hears about that namespace only.
// Each handler: validate (peers/handle.ts) → call the domain room → ack; terminal events are
// web-terminal.ts's. A share-link socket may only watch its one session (share.ts).
// Invariant: every room joined here is built from the socket's authenticated namespace; a session of
// another namespace answers `not_found`, exactly like a missing one.
import { ackError, namespaceRoom, sessionRoom, WebEventSchemas, type Namespace, type WebAcks } from '@tether/shared';
import type { Sessions } from '../sessions/lifecycle.ts';
import type { Approvals } from '../approvals/approvals.ts';
import type { RemoteSessions } from '../machines/remote-sessions.ts';
import type { ShellBridge } from '../machines/shells.ts';
import type { TerminalViewers } from '../terminal/viewers.ts';
import type { Reviews } from '../reviews/reviews.ts';
import type { Worktrees } from '../worktrees/worktrees.ts';
import type { Outside } from '../outside/outside.ts';
import type { Schedules } from '../schedules/schedules.ts';
import type { ProjectRules } from '../project-rules/project-rules.ts';
import type { UsageLimits } from '../usage-limits/usage-limits.ts';
import type { UnattendedGuardRoom } from '../unattended/unattended.ts';
import { handleSocketEvents } from '../peers/handle.ts';
import type { HubSocket } from '../peers/peer.ts';
import { bindWebTerminal } from './web-terminal.ts';
import { readOnlyIf, sessionLookup } from './share.ts';

/** Messages a watch ack backfills at most; the client pages further over REST or re-watches. */
const WATCH_BACKFILL_LIMIT = 500;
const NO_SESSION = 'no such session';

export type WebDomain = {
  sessions: Sessions;
  approvals: Approvals;
  remote: RemoteSessions;
  shells: ShellBridge;
  viewers: TerminalViewers;
  reviews: Reviews;
  worktrees: Worktrees;
  outside: Outside;
  schedules: Schedules;
  rules: ProjectRules;
  limits: UsageLimits;
  unattended: UnattendedGuardRoom;
  onError: (event: string, error: unknown) => void;
};

export function bindWebSocket(socket: HubSocket, domain: WebDomain): void {
  const { sessions, approvals, remote, shells } = domain;
  const ns: Namespace = socket.data.caller.namespace;
  const share = socket.data.share;
  const session = sessionLookup(socket, sessions);
  const terminal = bindWebTerminal(socket, { session, viewers: domain.viewers });

  // The namespace room carries every session's updates: not for a share link.
  if (!share) void socket.join(namespaceRoom(ns));

  handleSocketEvents<typeof WebEventSchemas, WebAcks>({
    socket,
    schemas: WebEventSchemas,
    onError: domain.onError,
    unordered: WAITS_ON_OTHERS,
    handlers: readOnlyIf(share !== null, {
      'session:watch': async ({ sessionId, afterSeq }) => {
        const current = await session(sessionId);
        if (!current) return ackError('not_found', NO_SESSION);
        await socket.join(sessionRoom(ns, sessionId));
        // With afterSeq: what this tab missed. Without: the latest page (a fresh tab shows the end).
        const page = await sessions.messages(ns, sessionId, { limit: WATCH_BACKFILL_LIMIT, ...(afterSeq !== undefined ? { after: afterSeq } : {}) });
        // A share link gets what GET /api/share/<token> gives: no pending requests (their toolInput
        // is what the owner is asked to allow, not part of the read-only view).
        const pending = share ? [] : await sessions.pendingOf(ns, sessionId);
        const prompts = share ? [] : await sessions.queuedPrompts(ns, sessionId);
        return { ok: true, session: current, messages: page?.messages ?? [], more: page?.more ?? false, pending, prompts };
      },
      'session:unwatch': async ({ sessionId }) => {
        if (!(await session(sessionId))) return ackError('not_found', NO_SESSION);
        await socket.leave(sessionRoom(ns, sessionId));
        return { ok: true };
      },
      // The sender's token is kept with the prompt: revoked while it is still held, the prompt is dropped.
      'prompt:send': (send) => sessions.queuePrompt(ns, send, { tokenId: socket.data.caller.tokenId }),
      'prompt:edit': (edit) => sessions.editPrompt(ns, edit),
      'prompt:withdraw': (ref) => sessions.withdrawPrompt(ns, ref),
      'session:abort': (command) => sessions.command(ns, 'session:abort', command),
      'session:set-model': (command) => sessions.command(ns, 'session:set-model', command),
      'session:set-effort': (command) => sessions.command(ns, 'session:set-effort', command),
      'session:set-mode': (command) => sessions.command(ns, 'session:set-mode', command),
      'session:pin': (pin) => sessions.pin(ns, pin),
      'session:limit-continue': (request) => domain.limits.setContinue(ns, request),
      'session:archive': (archive) => domain.reviews.archiveSession(ns, archive),
      'approval:answer': ({ requestId, answer }) =>
        approvals.answer(ns, { requestId, answer, answeredBy: socket.data.caller.label || socket.data.caller.tokenId, device: socket.data.device }),
      ...terminal.handlers,
      'client:visibility': ({ visible }) => {
        // Read by web push (hub/src/push): no tab on screen → the namespace gets a push.
        socket.data.visible = visible;
        return { ok: true };
      },
      'session:spawn': (request) => remote.spawn(ns, request),
      'session:resume': (request) => (request.fork ? domain.outside.forkSession(ns, request) : remote.resume(ns, request)),
      'session:stop': (request) => domain.reviews.stopSession(ns, request),
      'shell:open': (open) => shells.open(socket, open),
      'shell:input': (input) => shells.input(socket, input),
      'shell:resize': (resize) => shells.resize(socket, resize),
      'shell:close': (ref) => shells.close(socket, ref),
      'shell:leave': (ref) => shells.leave(socket, ref),
      'review:start': (request) => domain.reviews.start(ns, request),
      'review:send': (request) => domain.reviews.send(ns, request),
      'review:ask': (request) => domain.reviews.ask(ns, request),
      'review:end': (request) => domain.reviews.end(ns, request),
      'review:list': ({ sessionId }) => domain.reviews.list(ns, sessionId),
      'worktree:probe': (probe) => domain.worktrees.probe(ns, probe),
      'worktree:inspect': (inspect) => domain.worktrees.inspect(ns, inspect),
      'outside:adopt': (adopt) => domain.outside.adopt(ns, adopt),
      'machine:outside': (change) => domain.outside.setSwitch(ns, change),
      'schedule:create': (create) => domain.schedules.create(ns, create, { tokenId: socket.data.caller.tokenId, label: socket.data.caller.label || socket.data.caller.tokenId }),
      'schedule:list': () => domain.schedules.list(ns),
      'schedule:update': (update) => domain.schedules.update(ns, update),
      'schedule:remove': ({ id }) => domain.schedules.remove(ns, id),
      'unattended:get': () => domain.unattended.get(ns),
      'unattended:set': (change) => domain.unattended.set(ns, change),
      'rules:list': () => domain.rules.list(ns),
      'rules:accept': (accept) => domain.rules.accept(ns, accept, { by: socket.data.caller.label || socket.data.caller.tokenId, device: socket.data.device, tokenId: socket.data.caller.tokenId }),
      'rules:revoke': (revoke) => domain.rules.revoke(ns, revoke),
      'worktree:remove': (remove) => domain.worktrees.remove(ns, remove, { label: socket.data.caller.label || socket.data.caller.tokenId, device: socket.data.device }),
    }),
  });

  socket.on('disconnect', () => {
    terminal.gone();
    shells.viewerGone(socket);
  });
}

/** Events that wait on a daemon or a runner (seconds): handled outside the socket's order so that
 *  typing into a terminal does not queue behind a session start. */
const WAITS_ON_OTHERS: ReadonlySet<string> = new Set(['session:spawn', 'session:resume', 'session:stop', 'session:archive', 'review:start', 'review:end', 'shell:open', 'shell:input', 'shell:resize', 'shell:close', 'worktree:probe', 'worktree:inspect', 'worktree:remove', 'outside:adopt', 'machine:outside']);
