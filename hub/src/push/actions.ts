// actions.ts: a notification's button tapped (Allow, Deny, a question's option, Accept a plan…),
// answered without opening the app.
//
//   service worker ─POST /api/push/action {ns, request, choice, token}─► redeem (spent either way)
//     ─ok─► approvals.answer (first answer wins, as from the phone) as "<login> / notification@<browser>"
//
// Invariant: nothing changes unless the token is outstanding, unexpired and bound to exactly this
// namespace, request and choice, the request is still waiting, and the access token of the browser
// it was pushed to is still live (a revoked phone's notification answers nothing).
import { ackError, NOTIFICATION_DEVICE_PREFIX, type Ack, type NotificationAction, type Resolution } from '@tether/shared';
import type { Approvals } from '../approvals/approvals.ts';
import type { ActionTokens } from './action-tokens.ts';
import type { PushNotifier } from './notifier.ts';

export async function answerFromNotification(options: {
  approvals: Approvals;
  tokens: ActionTokens;
  notifier: PushNotifier;
  /** Whether the access token a subscription lives by is still live (not revoked). */
  tokenLive: (tokenId: string) => Promise<boolean>;
  action: NotificationAction;
}): Promise<Ack<{ resolution: Resolution }>> {
  const redeemed = options.tokens.redeem(options.action);
  // One message for every reason: a caller learns nothing about tokens it does not hold.
  const refused = () => ackError('forbidden', 'this notification action is used, expired or not for this request');
  if (!redeemed.ok) return refused();
  const { grant } = redeemed;
  if (!(await options.tokenLive(grant.tokenId))) {
    options.notifier.deviceRevoked(grant.tokenId);
    return refused();
  }
  options.notifier.answeredFrom({ namespace: grant.namespace, requestId: grant.requestId, endpoint: grant.endpoint });
  const ack = await options.approvals.answer(grant.namespace, {
    requestId: grant.requestId,
    answer: grant.answer,
    answeredBy: grant.answeredBy,
    device: `${NOTIFICATION_DEVICE_PREFIX}${grant.device}`,
  });
  // The answer was built from the request itself (choices.ts); a refusal here means the request is
  // no longer the one that was pushed.
  return !ack.ok && ack.code === 'bad_request' ? ackError('conflict', 'already answered') : ack;
}
