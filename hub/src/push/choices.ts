// choices.ts: the buttons a request's notification offers, each with the exact answer a tap gives.
// The answer is decided here, when the push is made, from the request as it was asked (requests do
// not change), and bound to that button's single-use token (action-tokens.ts): a tap can give that
// answer and no other. What does not fit on a notification opens the app at the request instead.
//
//   permission  → Allow, Deny
//   question    → one button per option: one single-choice question of at most MAX_BUTTONS options
//   plan        → Accept (edits still asked), Keep planning
//   dialog      → one button per option, at most MAX_BUTTONS, none of them a text field
//   anything else (several questions, multi-select, a form, a long list, a typed answer) → Open
import { buildQuestionAnswers, AskUserQuestionInputSchema, DialogInputSchema, type Answer, type PendingRequest } from '@tether/shared';

/** Buttons a notification may carry at most. Browsers show 2 (Chrome) to 3; the service worker
 *  shows a request's buttons only when all of them fit, else Open alone: a choice cut short would
 *  hide the right answer. */
export const MAX_BUTTONS = 4;
/** A button's title on a lock screen. */
const TITLE_CHARS = 40;

export type NotificationButton = { action: string; title: string; answer: Answer };

function title(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= TITLE_CHARS ? flat : `${flat.slice(0, TITLE_CHARS - 1)}…`;
}

/** The buttons that answer `request` from its notification, or null when it is answered in the app. */
export function notificationButtons(request: PendingRequest): NotificationButton[] | null {
  switch (request.kind) {
    case 'permission':
      return [
        { action: 'allow', title: 'Allow', answer: { decision: 'allow' } },
        { action: 'deny', title: 'Deny', answer: { decision: 'deny' } },
      ];
    case 'plan':
      // Accepting from a lock screen keeps edits asked: the safer of the plan dialog's two yeses.
      return [
        { action: 'accept', title: 'Accept', answer: { decision: 'allow', planMode: 'default' } },
        { action: 'keep-planning', title: 'Keep planning', answer: { decision: 'deny' } },
      ];
    case 'question': {
      const input = AskUserQuestionInputSchema.safeParse(request.toolInput);
      if (!input.success || input.data.questions.length !== 1) return null;
      const question = input.data.questions[0]!;
      if (question.multiSelect || question.options.length > MAX_BUTTONS) return null;
      return question.options.map((option, i) => ({
        action: `option-${i + 1}`,
        title: title(option.label),
        answer: { decision: 'allow', answers: buildQuestionAnswers({ questions: [question], picks: [{ labels: [option.label] }] }) },
      }));
    }
    case 'dialog': {
      const input = DialogInputSchema.safeParse(request.toolInput);
      if (!input.success || input.data.options.length === 0 || input.data.options.length > MAX_BUTTONS) return null;
      // An option that is a text field takes words, which no button has ("Enter a custom value").
      if (input.data.freeText?.key !== undefined) return null;
      return input.data.options.map((option, i) => ({ action: `option-${i + 1}`, title: title(option.label), answer: { decision: 'allow', choice: option.key } }));
    }
    case 'elicitation':
      return null;
    default: {
      const never: never = request.kind;
      return never;
    }
  }
}
