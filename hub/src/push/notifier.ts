// notifier.ts: decides when the hub pushes, and sends it to every browser of the namespace.
//
//   approval.requested                 ─┐
//   session.updated (thinking → idle)   ─┴─► any tab of ns visible? ─no─► sendWebPush × subscriptions
//   session.attention ─► no request of that session waits? ─► same delivery
//   session.limit-reset ─► the session still shows that limit? ─► same delivery
//   session.limit-continued ─► sent, or held by the unattended guard ─► same delivery (replaces the reset's)
//   approval.resolved ─► revoke its action tokens; {kind: close} to the browsers it was pushed to
//
// It subscribes to the hub's facts (facts/facts.ts), so no room has to know about push. A request's
// push carries the buttons that answer it (choices.ts: Allow/Deny, a question's or a dialog's
// options, Accept/Keep planning), each with a single-use token minted for that browser
// (action-tokens.ts); what does not fit on a notification carries Open.
// Invariants: a push is never sent while a tab of that namespace is on screen, at most once per
// request, and a failure to push never touches the fact being broadcast; nothing is pushed to a
// browser whose access token (a paired device's) is revoked: its subscription is forgotten first.
import {
  agentDisplayName,
  isFinalStatus,
  type Namespace,
  type PendingRequest,
  type PushClose,
  type PushMessage,
  type PushPayload,
  type Resolution,
  type Session,
  type SessionAttentionFact,
  type SessionStatus,
  type Schedule,
  type ScheduleRun,
} from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import { sendWebPush, type VapidKeys } from './web-push.ts';
import type { PushSubscriptionRecord, PushSubscriptions } from './subscriptions.ts';
import type { ActionTokens } from './action-tokens.ts';
import { notificationButtons } from './choices.ts';
import { checkPushEndpoint, checkPushTarget, type EndpointPolicy } from './endpoint.ts';

/** Requests already pushed (and to which browsers), remembered so a restored request (runner
 *  reconnect) is not re-pushed and a resolved one can close its notifications. */
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

/** The session's agent as people call it, in a sentence. */
function agentOf(session: Session | null): string {
  return session ? agentDisplayName(session.agent, session.capabilities) : 'The agent';
}

function requestDetail(request: PendingRequest, agent: string): string {
  const input = request.toolInput;
  const pick = (key: string) => (typeof input[key] === 'string' ? (input[key] as string) : null);
  if (request.kind === 'question') {
    const questions = Array.isArray(input.questions) ? (input.questions as Array<{ question?: unknown }>) : [];
    const first = questions[0]?.question;
    return typeof first === 'string' ? first : `${agent} has a question`;
  }
  if (request.kind === 'plan') return 'A plan is ready for review';
  if (request.kind === 'dialog') return pick('title') ?? `${agent} shows a choice`;
  if (request.kind === 'elicitation') return pick('message') || `${request.toolName} asks for input`;
  return pick('command') ?? pick('file_path') ?? pick('url') ?? pick('pattern') ?? pick('description') ?? request.toolName;
}

/** A dialog that came up right after a key at the desk (a picker opened there, claude's answer to a
 *  command typed there) has someone in front of it: the phone shows it, nothing is pushed. */
export function wantsPush(request: PendingRequest): boolean {
  return !(request.kind === 'dialog' && request.toolInput.openedAtDesk === true);
}

export function describeRequestPush(request: PendingRequest, session: Session | null): PushMessage {
  const name = sessionName(session);
  const agent = agentOf(session);
  const title =
    request.kind === 'question' || request.kind === 'dialog'
      ? `${name}: ${agent} asks`
      : request.kind === 'plan'
        ? `${name}: plan to approve`
        : request.kind === 'elicitation'
          ? `${name}: ${request.toolName} asks for input`
          : `${name}: allow ${request.toolName}?`;
  return {
    title: clip(title, 80),
    body: clip(requestDetail(request, agent)),
    url: `/sessions/${request.sessionId}`,
    tag: `request:${request.id}`,
    sessionId: request.sessionId,
    kind: request.kind === 'permission' ? 'approval' : request.kind,
  };
}

/** Apple's push service counts pushes that show nothing and revokes the subscription after a few,
 *  so its browsers keep a stale notification (tapping it opens the app, which shows the answer). */
function takesSilentPush(endpoint: string): boolean {
  const checked = checkPushEndpoint(endpoint, { dev: true });
  return checked.ok && !/(^|\.)push\.apple\.com$/.test(checked.url.hostname);
}

/** The notification's buttons for a request, with a fresh token per choice for one browser. */
export function withRequestActions(options: {
  message: PushMessage;
  namespace: Namespace;
  request: PendingRequest;
  target: PushSubscriptionRecord;
  tokens: ActionTokens;
}): PushMessage {
  const { namespace, request, target } = options;
  const buttons = notificationButtons(request);
  if (!buttons) return { ...options.message, request: { namespace, id: request.id, actions: [{ action: 'open', title: 'Open' }] } };
  const grant = { namespace, requestId: request.id, endpoint: target.endpoint, tokenId: target.tokenId, answeredBy: target.label ?? 'notification', device: target.device ?? 'a browser' };
  return {
    ...options.message,
    request: {
      namespace,
      id: request.id,
      actions: buttons.map(({ action, title }) => ({ action, title })),
      tokens: Object.fromEntries(buttons.map(({ action, answer }) => [action, options.tokens.mint({ ...grant, choice: action, answer })])),
    },
  };
}

/** claude said a person is needed and no request covers it (a dialog only the terminal shows, a
 *  background agent's question): one notification per session, replaced by the next. */
export function describeAttentionPush(session: Session | null, attention: SessionAttentionFact): PushMessage {
  return {
    title: clip(`${sessionName(session)}: ${agentOf(session)} needs you`, 80),
    body: clip(attention.message || `${agentOf(session)} is waiting for your input.`),
    url: `/sessions/${attention.sessionId}`,
    tag: `attention:${attention.sessionId}`,
    sessionId: attention.sessionId,
    kind: 'attention',
  };
}

export function describeTurnEndedPush(session: Session): PushMessage {
  return {
    title: clip(`${sessionName(session)}: ${agentOf(session)} is done`, 80),
    body: `The turn ended; ${agentOf(session)} is waiting for your next message.`,
    url: `/sessions/${session.id}`,
    tag: `turn:${session.id}`,
    sessionId: session.id,
    kind: 'turn-ended',
  };
}

const RUN_WORDS: Record<ScheduleRun['outcome'], string> = { sent: 'Scheduled prompt sent', started: 'Scheduled session started', skipped: 'Scheduled prompt skipped', failed: 'Scheduled prompt failed', stopped: 'Scheduled prompt stopped by the unattended guard' };

/** A schedule's run, told whatever came of it: nobody was at the desk when it ran. */
export function describeScheduleRunPush(schedule: Schedule, run: ScheduleRun): PushMessage {
  const late = run.missed ? ` (missed at ${new Date(run.dueAt).toISOString().slice(11, 16)} UTC)` : '';
  return {
    title: clip(`${RUN_WORDS[run.outcome]}${late}`, 80),
    body: clip(run.detail ? `${schedule.prompt} — ${run.detail}` : schedule.prompt),
    url: run.sessionId ? `/sessions/${run.sessionId}` : '/schedules',
    tag: `schedule:${schedule.id}`,
    sessionId: run.sessionId ?? '',
    kind: 'schedule',
  };
}

/** A session's usage limit reset (usage-limits/): one notification per session, replaced by the next. */
export function describeLimitResetPush(session: Session, goesOn: boolean): PushMessage {
  const agent = agentOf(session);
  const body = isFinalStatus(session.status)
    ? `The session ended during the wait: resume it to continue.`
    : goesOn
      ? `${agent} goes on.`
      : `${agent} can go on: send a prompt to continue.`;
  return {
    title: clip(`${sessionName(session)}: the usage limit reset`, 80),
    body,
    url: `/sessions/${session.id}`,
    tag: `limit:${session.id}`,
    sessionId: session.id,
    kind: 'limit-reset',
  };
}

/** tether's one continue at a reset, sent or held by the unattended guard: every unattended run is
 *  told. Same tag as the reset's notice, which it replaces. */
export function describeLimitContinuedPush(session: Session, fact: { prompt: string; held: { text: string } | null }): PushMessage {
  return {
    title: clip(`${sessionName(session)}: ${fact.held ? 'not continued after the usage limit' : 'continued after the usage limit'}`, 80),
    body: clip(fact.held ? fact.held.text : `Sent “${fact.prompt}”.`),
    url: `/sessions/${session.id}`,
    tag: `limit:${session.id}`,
    sessionId: session.id,
    kind: 'limit-reset',
  };
}

export type PushNotifierOptions = {
  store: Store;
  subscriptions: PushSubscriptions;
  keys: VapidKeys;
  tokens: ActionTokens;
  /** Whether the access token a subscription lives by is still live (not revoked). */
  tokenLive: (tokenId: string) => Promise<boolean>;
  fetchFn?: typeof fetch;
  onError?: (message: string) => void;
  /** Which endpoints may be sent to (endpoint.ts); default the production rules. */
  endpoints?: EndpointPolicy;
  /** Whether a tab of the namespace is on screen (the socket rooms know). */
  anyVisible: (ns: Namespace) => Promise<boolean>;
};

export type PushNotifier = ReturnType<typeof createPushNotifier>;

export function createPushNotifier(options: PushNotifierOptions) {
  const policy = options.endpoints ?? { dev: false };
  const lastStatus = new Map<string, SessionStatus>();
  /** `ns\0requestId` → the endpoints its push went to. */
  const pushedRequests = new Map<string, Set<string>>();
  const requestKey = (ns: Namespace, requestId: string) => `${ns}\0${requestId}`;
  const report = (error: unknown) => options.onError?.(`web push: ${error instanceof Error ? error.message : String(error)}`);

  const { send, liveTargets, deliver } = pushDelivery({ ...options, policy, report });

  async function requested(ns: Namespace, request: PendingRequest): Promise<void> {
    const key = requestKey(ns, request.id);
    if (pushedRequests.has(key) || !wantsPush(request)) return;
    const endpoints = new Set<string>();
    pushedRequests.set(key, endpoints);
    if (pushedRequests.size > REMEMBERED_REQUESTS) pushedRequests.delete(pushedRequests.keys().next().value!);
    const session = await options.store.getSession({ namespace: ns, sessionId: request.sessionId });
    const base = describeRequestPush(request, session);
    await deliver(
      ns,
      (target) => withRequestActions({ message: base, namespace: ns, request, target, tokens: options.tokens }),
      (targets) => {
        for (const target of targets) endpoints.add(target.endpoint);
      },
    );
  }

  /** A request already pushed for this session says the same thing better (with its buttons). */
  async function attention(ns: Namespace, fact: SessionAttentionFact): Promise<void> {
    const pending = await options.store.listPending({ namespace: ns, sessionId: fact.sessionId });
    if (pending.length > 0) return;
    const session = await options.store.getSession({ namespace: ns, sessionId: fact.sessionId });
    if (!session || isFinalStatus(session.status)) return;
    await deliver(ns, () => describeAttentionPush(session, fact));
  }

  /** Answered or withdrawn: tokens die, and browsers still showing it get a silent close. */
  async function resolved(ns: Namespace, resolution: Resolution): Promise<void> {
    options.tokens.revokeRequest(ns, resolution.requestId);
    const key = requestKey(ns, resolution.requestId);
    const endpoints = pushedRequests.get(key);
    if (!endpoints || endpoints.size === 0) return;
    pushedRequests.set(key, new Set()); // still remembered (not re-pushed), closed once
    const close: PushClose = { kind: 'close', tag: `request:${resolution.requestId}` };
    const targets = (await liveTargets(ns)).filter((t) => endpoints.has(t.endpoint) && takesSilentPush(t.endpoint));
    await Promise.all(targets.map((target) => send(target, () => close, () => 'high')));
  }

  /** The reset of a limit the session still shows (a limit the agent already got past says nothing new). */
  async function limitReset(ns: Namespace, fact: { sessionId: string; resetsAt: number; goesOn: boolean }): Promise<void> {
    const session = await options.store.getSession({ namespace: ns, sessionId: fact.sessionId });
    if (!session || session.limit?.resetsAt !== fact.resetsAt) return;
    await deliver(ns, () => describeLimitResetPush(session, fact.goesOn));
  }

  async function limitContinued(ns: Namespace, fact: { sessionId: string; prompt: string; held: { text: string } | null }): Promise<void> {
    const session = await options.store.getSession({ namespace: ns, sessionId: fact.sessionId });
    if (session) await deliver(ns, () => describeLimitContinuedPush(session, fact));
  }

  /** Status changes per session: a turn that ended (thinking → idle) is worth a push. */
  function sessionUpdated(ns: Namespace, session: Session): void {
    const key = `${ns}\0${session.id}`;
    const before = lastStatus.get(key);
    if (isFinalStatus(session.status)) lastStatus.delete(key);
    else lastStatus.set(key, session.status);
    if (before === 'thinking' && session.status === 'idle') deliver(ns, () => describeTurnEndedPush(session)).catch(report);
  }

  return {
    /** A notification's button was tapped on a device whose token is revoked: its subscriptions go. */
    deviceRevoked(tokenId: string): void {
      options.subscriptions.forgetToken(tokenId);
    },
    /** A notification answered its own request: that browser closed it already, so it gets no
     *  close push (pushes that show nothing are rationed by browsers). Call before announcing. */
    answeredFrom(options: { namespace: Namespace; requestId: string; endpoint: string }): void {
      pushedRequests.get(requestKey(options.namespace, options.requestId))?.delete(options.endpoint);
    },
    /** Follows the hub's facts. A push never holds up or fails the fact (errors are reported). */
    listen(facts: FactBus): void {
      facts.on('approval.requested', ({ namespace, request }) => void requested(namespace, request).catch(report));
      facts.on('session.attention', ({ namespace, attention: fact }) => void attention(namespace, fact).catch(report));
      facts.on('approval.resolved', ({ namespace, resolution }) => void resolved(namespace, resolution).catch(report));
      facts.on('session.updated', ({ namespace, session }) => sessionUpdated(namespace, session));
      facts.on('schedule.ran', ({ namespace, schedule, run }) => void deliver(namespace, () => describeScheduleRunPush(schedule, run)).catch(report));
      facts.on('session.limit-reset', ({ namespace, ...fact }) => void limitReset(namespace, fact).catch(report));
      facts.on('session.limit-continued', ({ namespace, ...fact }) => void limitContinued(namespace, fact).catch(report));
    },
  };
}

/** How a push reaches browsers: the namespace's live subscriptions (revoked devices forgotten first),
 *  none while a tab is on screen, each send on its own. */
function pushDelivery(options: PushNotifierOptions & { policy: EndpointPolicy; report: (error: unknown) => void }) {
  const { policy, report } = options;

  /** One browser's push. Never throws: one subscription's failure must not touch another's. */
  async function send(target: PushSubscriptionRecord, payload: () => PushPayload, urgency: (p: PushPayload) => 'normal' | 'high'): Promise<void> {
    try {
      const checked = await checkPushTarget(target.endpoint, policy);
      if (!checked.ok) {
        options.onError?.(`web push: subscription skipped: ${checked.reason}`);
        return;
      }
      const body = payload();
      const outcome = await sendWebPush({ target, payload: body, keys: options.keys, urgency: urgency(body), ...(options.fetchFn ? { fetchFn: options.fetchFn } : {}) });
      if (outcome.kind === 'gone') options.subscriptions.forget(target.endpoint);
      else if (outcome.kind === 'failed') options.onError?.(`web push to ${checked.url.host} failed (${outcome.status}): ${outcome.reason}`);
    } catch (error) {
      report(error);
    }
  }

  /** The namespace's subscriptions whose token still lives; the others are forgotten here, before
   *  anything is sent, so a revoked device hears nothing more (not even a close). */
  async function liveTargets(ns: Namespace): Promise<PushSubscriptionRecord[]> {
    const all = options.subscriptions.list(ns);
    const verdicts = new Map<string, boolean>();
    for (const tokenId of new Set(all.map((t) => t.tokenId))) verdicts.set(tokenId, await options.tokenLive(tokenId));
    for (const [tokenId, live] of verdicts) if (!live) options.subscriptions.forgetToken(tokenId);
    return all.filter((t) => verdicts.get(t.tokenId) === true);
  }

  /** Sends to every browser of the namespace unless a tab is on screen. `sending` learns who is
   *  sent to before anything goes out, so a resolution that follows at once finds them. */
  async function deliver(ns: Namespace, message: (target: PushSubscriptionRecord) => PushMessage, sending?: (targets: PushSubscriptionRecord[]) => void): Promise<void> {
    const targets = await liveTargets(ns);
    if (targets.length === 0) return;
    if (await options.anyVisible(ns)) return;
    sending?.(targets);
    await Promise.all(targets.map((target) => send(target, () => message(target), (payload) => ('kind' in payload && payload.kind === 'turn-ended' ? 'normal' : 'high'))));
  }

  return { send, liveTargets, deliver };
}
