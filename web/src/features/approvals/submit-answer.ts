// submit-answer.ts: what every form of the approval sheet is handed to answer with. Its own file so
// the forms depend on the sheet's contract, not on the sheet (which imports them).
import type { Answer } from '@tether/shared';

/** Sends `answer` for the open request; `action` names the pressed control (its spinner). */
export type SubmitAnswer = (answer: Answer, action: string) => Promise<void>;
