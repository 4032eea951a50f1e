// spread.ts: which of this hub's facts the other hubs of a cluster hear, and what hearing one does
// here. socket.io's adapter already carries room broadcasts to every hub's tabs; what it cannot
// carry is in-process state: a spawn or stop may wait on one hub while its runner reports to
// another, and a terminal's viewers may sit on a hub the runner just left.
//
//   session.updated  ─tell─► other hubs ─► their readiness waits
//   terminal.started ─tell─► other hubs ─► their viewers of that session move to this hub
import type { FactBus } from '../facts/facts.ts';
import type { SessionReadiness } from '../sessions/readiness.ts';
import type { TerminalViewers } from '../terminal/viewers.ts';
import type { ClusterBus } from './bus.ts';

export function spreadFacts(options: { facts: FactBus; bus: ClusterBus; readiness: SessionReadiness; viewers: TerminalViewers }): void {
  const { facts, bus } = options;
  facts.on('session.updated', ({ namespace, session }) => bus.tell('session-updated', { namespace, session }));
  bus.on('session-updated', ({ namespace, session }) => options.readiness.sessionUpdated(namespace, session));
  facts.on('terminal.started', ({ namespace, sessionId, hubUrl }) => bus.tell('terminal-moved', { namespace, sessionId, hubUrl }));
  bus.on('terminal-moved', ({ namespace, sessionId, hubUrl }) => options.viewers.moved(namespace, sessionId, hubUrl));
}
