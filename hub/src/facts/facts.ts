// facts.ts: the hub's one fact bus. Domain rooms publish what became true (a session changed, a
// request waits or was resolved, a machine went offline, a terminal started here); whoever cares
// subscribes: the socket rooms, web push, spawn readiness, the other hubs of a cluster. createHub
// builds it and wires every subscriber; no room reaches into another to hear its facts.
//
//   sessions/ approvals/ machines/ terminal/ ─publish─► facts ─► sockets/rooms (tabs of the namespace)
//                                                              ├► cluster (other hubs' readiness, viewers)
//                                                              ├► sessions/readiness (spawn, stop waits)
//                                                              └► push/notifier (nobody looking → push)
//
// Invariants: subscribers run synchronously in the order they subscribed (createHub subscribes the
// rooms first, so tabs hear a fact before anything reacts to it); a subscriber that throws is
// reported and never reaches the publisher or the next subscriber.
import type { Answer, ChatMessage, GuardStop, UnattendedGuard, Machine, Namespace, PendingRequest, ProjectRule, Prompt, Resolution, Review, Schedule, ScheduleRun, Session, SessionAttentionFact, SessionCommandFinished } from '@tether/shared';

export type FactMap = {
  'session.updated': { namespace: Namespace; session: Session };
  'session.attention': { namespace: Namespace; attention: SessionAttentionFact };
  'session.command-finished': { namespace: Namespace; finished: SessionCommandFinished };
  'messages.added': { namespace: Namespace; sessionId: string; messages: ChatMessage[] };
  'prompt.updated': { namespace: Namespace; prompt: Prompt };
  'approval.requested': { namespace: Namespace; request: PendingRequest };
  'approval.resolved': { namespace: Namespace; resolution: Resolution };
  /** A person allowed a request from afar (a tab, `tether answer`, a notification): project-rules/ counts it. */
  'approval.allowed': { namespace: Namespace; request: PendingRequest; answer: Answer };
  /** A rule tether proposed changed (project-rules/). */
  'rule.updated': { namespace: Namespace; rule: ProjectRule };
  'machine.updated': { namespace: Namespace; machine: Machine };
  /** A runner (re)registered a live session on the hub at `hubUrl`: its terminal streams from there. */
  'terminal.started': { namespace: Namespace; sessionId: string; hubUrl: string };
  /** A session's usage limit reached its reset time (usage-limits/): worth telling the person.
   *  `goesOn`: its agent waits it out itself, or tether will continue it. */
  'session.limit-reset': { namespace: Namespace; sessionId: string; resetsAt: number; goesOn: boolean };
  /** tether's one continue at a reset was sent, or the unattended guard held it (`held`): told either way. */
  'session.limit-continued': { namespace: Namespace; sessionId: string; resetsAt: number; prompt: string; held: { stop: GuardStop; text: string } | null };
  /** The namespace's unattended guard changed: paused or resumed, its cap, a run counted (unattended/). */
  'unattended.updated': { namespace: Namespace; guard: UnattendedGuard };
  /** A review card changed (reviews/): started, answered, ended. */
  'review.updated': { namespace: Namespace; review: Review };
  /** A schedule was made, changed or ran (schedules/). */
  'schedule.updated': { namespace: Namespace; schedule: Schedule };
  'schedule.removed': { namespace: Namespace; id: string };
  /** A scheduled prompt ran (or was skipped or failed) with nobody at the desk: every such run is told. */
  'schedule.ran': { namespace: Namespace; schedule: Schedule; run: ScheduleRun };
  /** Tokens revoked through this hub (a device signed out, a replayed refresh secret, an idle
   *  device): their sockets and push subscriptions go now, here and on the other hubs. */
  'tokens.revoked': { namespace: Namespace; tokenIds: string[] };
};
export type FactName = keyof FactMap;
export type Listener<K extends FactName> = (fact: FactMap[K]) => void;

export type FactBus = {
  publish<K extends FactName>(name: K, fact: FactMap[K]): void;
  /** Returns the way to stop listening. */
  on<K extends FactName>(name: K, listener: Listener<K>): () => void;
};

export function createFactBus(options: { onError: (what: string, error: unknown) => void }): FactBus {
  const listeners: { [K in FactName]: Array<Listener<K>> } = {
    'session.updated': [],
    'session.attention': [],
    'session.command-finished': [],
    'messages.added': [],
    'prompt.updated': [],
    'approval.requested': [],
    'approval.resolved': [],
    'approval.allowed': [],
    'rule.updated': [],
    'machine.updated': [],
    'terminal.started': [],
    'session.limit-reset': [],
    'session.limit-continued': [],
    'unattended.updated': [],
    'review.updated': [],
    'schedule.updated': [],
    'schedule.removed': [],
    'schedule.ran': [],
    'tokens.revoked': [],
  };
  return {
    publish(name, fact) {
      for (const listener of [...listeners[name]]) {
        try {
          listener(fact);
        } catch (error) {
          options.onError(`fact ${name}`, error);
        }
      }
    },
    on(name, listener) {
      listeners[name].push(listener);
      return () => {
        const list = listeners[name];
        const at = list.indexOf(listener);
        if (at >= 0) list.splice(at, 1);
      };
    },
  };
}
