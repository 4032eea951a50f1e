// actions.ts: Allow or Deny tapped on a notification, answered without opening the app.
//
//   service worker ─POST /api/push/action {ns, request, choice, token}─► redeem (spent either way)
//     ─ok─► answerAndAnnounce (first answer wins, as from the phone) as "<login> / notification@<browser>"
//
// Invariant: nothing changes unless the token is outstanding, unexpired and bound to exactly this
// namespace, request and choice, and the request is still waiting.
import { NOTIFICATION_DEVICE_PREFIX, type NotificationAction, type Resolution } from '@tether/shared';
import type { Store } from '../store/store.ts';
import { answerAndAnnounce, type ApprovalFacts } from '../approvals/announce.ts';
import type { ActionTokens } from './action-tokens.ts';
import type { PushNotifier } from './notifier.ts';

export type NotificationAnswer =
  | { kind: 'answered'; resolution: Resolution }
  | { kind: 'refused'; reason: 'unknown' | 'expired' | 'mismatch' }
  | { kind: 'conflict' }
  | { kind: 'not_found' };

export async function answerFromNotification(options: {
  store: Store;
  facts: ApprovalFacts;
  tokens: ActionTokens;
  notifier: PushNotifier;
  action: NotificationAction;
}): Promise<NotificationAnswer> {
  const { action } = options;
  const redeemed = options.tokens.redeem(action);
  if (!redeemed.ok) return { kind: 'refused', reason: redeemed.reason };
  const { grant } = redeemed;
  options.notifier.answeredFrom({ namespace: grant.namespace, requestId: grant.requestId, endpoint: grant.endpoint });
  const result = await answerAndAnnounce({
    store: options.store,
    facts: options.facts,
    namespace: grant.namespace,
    requestId: grant.requestId,
    answer: { decision: grant.choice },
    answeredBy: grant.answeredBy,
    device: `${NOTIFICATION_DEVICE_PREFIX}${grant.device}`,
  });
  if (result.kind === 'answered') return { kind: 'answered', resolution: result.resolution };
  // Buttons are minted for permission requests only (notifier.ts), which never fail as 'invalid'.
  return result.kind === 'conflict' || result.kind === 'invalid' ? { kind: 'conflict' } : { kind: 'not_found' };
}
