// rooms.ts: where hub facts reach sockets. Room names come only from shared/rooms.ts with the
// namespace the fact belongs to, never from a client payload.
//   /web namespaceRoom: session list, approvals, prompts, machines  (every tab of the namespace)
//   /web sessionRoom:   chat messages of one session                (tabs watching it)
//   terminal bytes go to each viewer's own socket (terminal/ rooms keep per-viewer positions)
//   /cli runnerRoom:    commands for the runner that owns a session (RunnerCommands)
import type { Server, Socket } from 'socket.io';
import { namespaceRoom, runnerRoom, sessionRoom, type Namespace } from '@tether/shared';
import type { FactBus } from '../facts/facts.ts';
import type { RunnerCommands } from '../facts/runners.ts';
import type { RunnerPort } from '../terminal/room.ts';
import type { HubSocketData } from '../peers/peer.ts';
import { echoMark } from '../terminal/echo-trace.ts';
import { runnerPresent } from '../peers/runner-present.ts';

export type Rooms = ReturnType<typeof createRooms>;

export function createRooms(options: { io: Server }) {
  const web = options.io.of('/web');
  const cli = options.io.of('/cli');
  const tabs = (ns: Namespace) => web.to(namespaceRoom(ns));
  const runners: RunnerCommands = {
    send: (ns, sessionId, event, payload) => void cli.to(runnerRoom(ns, sessionId)).emit(event, payload),
    present: (ns, sessionId) => runnerPresent(cli, ns, sessionId),
    // Through the adapter, like daemon commands: the answers of every runner socket reached, on any hub.
    ask: async (ns, sessionId, event, payload, timeoutMs) => {
      return (await cli.to(runnerRoom(ns, sessionId)).timeout(timeoutMs).emitWithAck(event, payload)) as unknown[];
    },
  };
  return {
    runners,
    /** Every tab of a namespace hears its facts; chat goes to the tabs watching that session. */
    subscribe(facts: FactBus): void {
      facts.on('session.updated', ({ namespace, session }) => tabs(namespace).emit('session:updated', session));
      facts.on('session.attention', ({ namespace, attention }) => tabs(namespace).emit('session:attention', attention));
      facts.on('session.command-finished', ({ namespace, finished }) => tabs(namespace).emit('session:command-finished', finished));
      facts.on('prompt.updated', ({ namespace, prompt }) => tabs(namespace).emit('prompt:updated', prompt));
      facts.on('approval.requested', ({ namespace, request }) => tabs(namespace).emit('approval:requested', request));
      facts.on('approval.resolved', ({ namespace, resolution }) => tabs(namespace).emit('approval:resolved', resolution));
      facts.on('machine.updated', ({ namespace, machine }) => tabs(namespace).emit('machine:updated', machine));
      facts.on('rule.updated', ({ namespace, rule }) => tabs(namespace).emit('rule:updated', rule));
      facts.on('messages.added', ({ namespace, sessionId, messages }) => web.to(sessionRoom(namespace, sessionId)).emit('message:added', { sessionId, messages }));
      // A review card is part of its parent's chat: the tabs watching the parent.
      facts.on('schedule.updated', ({ namespace, schedule }) => tabs(namespace).emit('schedule:updated', schedule));
      facts.on('schedule.removed', ({ namespace, id }) => tabs(namespace).emit('schedule:removed', { id }));
      facts.on('unattended.updated', ({ namespace, guard }) => tabs(namespace).emit('unattended:updated', guard));
      facts.on('review.updated', ({ namespace, review }) => web.to(sessionRoom(namespace, review.parentId)).emit('review:updated', review));
    },
    /** One send of a terminal chunk to many viewers. Viewer ids are /web socket ids, and every
     *  socket is in the room named by its id: one encode, many writes. Viewers of other hubs get one
     *  message per link. Never through the adapter (`local`): these sockets are here, and terminal
     *  bytes are too many for NOTIFY. */
    terminalFanout(linkOf: (viewerId: string, sessionId: string) => Socket | null) {
      return (_ns: Namespace, sessionId: string) => (viewerIds: string[], offset: number, data: Uint8Array) => {
        const local: string[] = [];
        const remote = new Map<Socket, string[]>();
        for (const id of viewerIds) {
          const link = linkOf(id, sessionId);
          if (link) remote.set(link, [...(remote.get(link) ?? []), id]);
          else local.push(id);
        }
        if (local.length > 0) web.local.to(local).emit('terminal:output', { sessionId, offset, data });
        echoMark('hub_sent');
        for (const [link, ids] of remote) link.emit('link:output', { sessionId, viewerIds: ids, offset, data });
      };
    },
    /** A terminal room speaks for the runner only on the runner's own hub (`local`): a room that
     *  waits on another hub must not tell the runner a viewer count of its own. */
    terminalRunner(ns: Namespace, sessionId: string): RunnerPort {
      const runner = () => cli.local.to(runnerRoom(ns, sessionId));
      return {
        input: (data, from) => {
          runner().emit('terminal:input', { sessionId, data, ...(from?.desk ? { desk: true } : {}) });
          echoMark('hub_fwd');
        },
        resize: ({ cols, rows }) => runner().emit('terminal:resize', { sessionId, cols, rows }),
        viewers: (count) => runner().emit('terminal:viewers', { sessionId, count }),
        requestSnapshot: () => runner().emit('terminal:snapshot-request', { sessionId }),
      };
    },
    /** A browser tab of the namespace is on screen (client:visibility); share links do not count. */
    async anyVisible(ns: Namespace): Promise<boolean> {
      return (await web.in(namespaceRoom(ns)).fetchSockets()).some((s) => {
        const data = s.data as HubSocketData | undefined;
        return data?.client === 'web' && data.visible === true;
      });
    },
  };
}
