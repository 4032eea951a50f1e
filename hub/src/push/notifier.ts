// notifier.ts: decides when the hub pushes, and sends it to every browser of the namespace.
//
//   broadcast.toNamespace(approval:requested)          ─┐
//   broadcast.toNamespace(session:updated thinking→idle) ─┴─► any tab of ns visible? ─no─► sendWebPush × subscriptions
//
// It watches the facts the hub already broadcasts (observe() wraps the broadcaster), so no room has
// to know about push. Invariant: a push is never sent while a tab of that namespace is on screen, at
// most once per request, and a failure to push never touches the fact being broadcast.
import { isFinalStatus, type Namespace, type PendingRequest, type PushMessage, type Session, type SessionStatus } from '@tether/shared';
import type { Store } from '../store/store.ts';
import { sendWebPush, type VapidKeys } from './web-push.ts';
import type { PushSubscriptions } from './subscriptions.ts';

/** Request ids already pushed, remembered so a restored request (runner reconnect) is not re-pushed. */
const REMEMBERED_REQUESTS = 1000;
/** What fits on a lock screen. */
const BODY_CHARS = 140;

function clip(text: string, max = BODY_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function sessionName(session: Session | null): string {
  if (!session) return 'A session';
  return session.title.trim() || session.cwd.split('/').filter(Boolean).pop() || 'A session';
}

function requestDetail(request: PendingRequest): string {
  const input = request.toolInput;
  const pick = (key: string) => (typeof input[key] === 'string' ? (input[key] as string) : null);
  if (request.kind === 'question') {
    const questions = Array.isArray(input.questions) ? (input.questions as Array<{ question?: unknown }>) : [];
    const first = questions[0]?.question;
    return typeof first === 'string' ? first : 'Claude has a question';
  }
  if (request.kind === 'plan') return 'A plan is ready for review';
  return pick('command') ?? pick('file_path') ?? pick('url') ?? pick('pattern') ?? pick('description') ?? request.toolName;
}

export function describeRequestPush(request: PendingRequest, session: Session | null): PushMessage {
  const name = sessionName(session);
  const title =
    request.kind === 'question' ? `${name}: Claude asks` : request.kind === 'plan' ? `${name}: plan to approve` : `${name}: allow ${request.toolName}?`;
  return {
    title: clip(title, 80),
    body: clip(requestDetail(request)),
    url: `/sessions/${request.sessionId}`,
    tag: `request:${request.id}`,
    sessionId: request.sessionId,
    kind: request.kind === 'permission' ? 'approval' : request.kind,
  };
}

export function describeTurnEndedPush(session: Session): PushMessage {
  return {
    title: clip(`${sessionName(session)}: Claude is done`, 80),
    body: 'The turn ended; Claude is waiting for your next message.',
    url: `/sessions/${session.id}`,
    tag: `turn:${session.id}`,
    sessionId: session.id,
    kind: 'turn-ended',
  };
}

export type PushNotifier = ReturnType<typeof createPushNotifier>;

export function createPushNotifier(options: {
  store: Store;
  subscriptions: PushSubscriptions;
  keys: VapidKeys;
  fetchFn?: typeof fetch;
  onError?: (message: string) => void;
}) {
  const lastStatus = new Map<string, SessionStatus>();
  const pushedRequests = new Set<string>();
  let anyVisible: (ns: Namespace) => Promise<boolean> = async () => false;

  async function deliver(ns: Namespace, message: PushMessage): Promise<void> {
    const targets = options.subscriptions.list(ns);
    if (targets.length === 0) return;
    if (await anyVisible(ns)) return;
    await Promise.all(
      targets.map(async (target) => {
        const outcome = await sendWebPush({
          target,
          payload: message,
          keys: options.keys,
          urgency: message.kind === 'turn-ended' ? 'normal' : 'high',
          ...(options.fetchFn ? { fetchFn: options.fetchFn } : {}),
        });
        if (outcome.kind === 'gone') options.subscriptions.forget(target.endpoint);
        else if (outcome.kind === 'failed') options.onError?.(`web push to ${new URL(target.endpoint).host} failed (${outcome.status}): ${outcome.reason}`);
      }),
    );
  }

  function onFact(ns: Namespace, event: string, payload: unknown): void {
    if (event === 'approval:requested') {
      const request = payload as PendingRequest;
      if (pushedRequests.has(request.id)) return;
      pushedRequests.add(request.id);
      if (pushedRequests.size > REMEMBERED_REQUESTS) pushedRequests.delete(pushedRequests.values().next().value!);
      void options.store
        .getSession({ namespace: ns, sessionId: request.sessionId })
        .then((session) => deliver(ns, describeRequestPush(request, session)))
        .catch((error: unknown) => options.onError?.(`web push for a request failed: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    if (event === 'session:updated') {
      const session = payload as Session;
      const key = `${ns}\0${session.id}`;
      const before = lastStatus.get(key);
      if (isFinalStatus(session.status)) lastStatus.delete(key);
      else lastStatus.set(key, session.status);
      if (before === 'thinking' && session.status === 'idle') void deliver(ns, describeTurnEndedPush(session));
    }
  }

  return {
    /** Wraps the hub's broadcaster (any object with toNamespace): every namespace fact also passes
     *  by the notifier. Push knows nothing of sockets; the socket layer hands it this and a way to
     *  ask whether a tab of a namespace is on screen. */
    observe<B extends { toNamespace(ns: Namespace, event: never, payload: never): void }>(
      broadcast: B,
      visibility: { anyVisible: (ns: Namespace) => Promise<boolean> },
    ): B {
      anyVisible = visibility.anyVisible;
      const forward = broadcast.toNamespace.bind(broadcast) as (ns: Namespace, event: string, payload: unknown) => void;
      const toNamespace = (ns: Namespace, event: string, payload: unknown) => {
        forward(ns, event, payload);
        try {
          onFact(ns, event, payload);
        } catch (error) {
          options.onError?.(`web push: ${error instanceof Error ? error.message : String(error)}`);
        }
      };
      return { ...broadcast, toNamespace } as B;
    },
  };
}
