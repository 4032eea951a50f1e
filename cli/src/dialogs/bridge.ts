// bridge.ts: a choice claude draws on its screen (read-dialog.ts) asked on the hub as a `dialog`
// request, when no hub request already covers it, and answered by pressing the chosen option's key.
//
//   screen read ─► seen(dialog) ─stable for settleMs (re-read equal)─► approval:request {kind: dialog}
//   hub approval:answered {choice} ─► re-read the screen: the same dialog? press keysFor(choice) : nothing
//   hub approval:answered {text}   ─► typed into its text field (free-text.ts); not typed ─► asked again
//       with the reason (`notice`), while the dialog is still on screen
//   dialog gone (answered at the desk) ─► approval:desk-answer {answer: null}: every phone clears, the
//       audit reads "Claude's dialog"; replaced in place by another ─► approval:withdraw, then the new one
//
// The request itself (its id, the send, the re-send after a reconnect, the withdraw, the desk's
// answer) is the session's request registry's (runner/requests/), handed in as `requests`.
//
// Invariants: nothing is pressed but the option a person chose, and only while that very dialog is on
// screen; a dialog seen while a hook request waits (claude's own permission dialog, AskUserQuestion,
// a plan) belongs to that request and is never raised, nor is a dialog already answered, while it
// stays on screen; at most one dialog request is open at a time.
import { DIALOG_TOOL_NAME, dialogAnswerProblem, type Answer, type DialogInput, type PendingRequest } from '@tether/shared';
import { keysFor, type ScreenDialog } from './read-dialog.ts';
import { typeFreeText } from './free-text.ts';

/** Two reads this far apart must agree before a dialog is raised, so redraws do not flap requests. */
export const DIALOG_SETTLE_MS = 150;
/** Retry while the hub link is not registered yet (start-up dialogs come before SessionStart). */
const RETRY_MS = 500;
/** How often a dialog first seen while a request is closing is looked at again. */
const CLOSING_LOOK_AGAIN_MS = 250;

export type DialogBridge = {
  /** Every screen read: the choice on screen, or null. */
  seen(dialog: ScreenDialog | null): void;
  stop(): void;
};

/** The session's request registry (runner/requests/registry.ts) as the bridge uses it: the bridge is
 *  below the runner and takes it as handed. */
export type DialogRequests = {
  open(o: { request: PendingRequest; onAnswer: (answer: Answer) => void }): {
    readonly request: PendingRequest;
    send(): Promise<boolean>;
    close(): void;
    withdraw(reason: string): void;
    answeredAtDesk(): Promise<unknown>;
  };
};

/** A dialog asked on the hub. The session's status follows its request in the registry (waiting
 *  once the hub took it, until it is closed): the bridge tells the status nothing. */
type Raised = { handle: ReturnType<DialogRequests['open']>; dialog: ScreenDialog };

export function createDialogBridge(options: {
  sessionId: () => string;
  requests: DialogRequests;
  /** A fresh read of the screen (at answer time and to confirm a candidate). */
  read: () => Promise<ScreenDialog | null>;
  write: (keys: string) => void;
  /** This dialog is a hub request's own: one claude draws while a hook approval, question or plan
   *  waits, or the runner is answering it for a request the hub already answered (a plan's). */
  covered: (dialog: ScreenDialog) => boolean;
  /** A request closed moments ago: a dialog first seen now may still be its own, on screen a little
   *  after the answer, or a new question (claude's "Switch model?" 1.4 s after an allowed call):
   *  looked at again once that passes, never ignored for good. */
  closing?: () => boolean;
  /** Whether a key was pressed at the desk moments ago (someone is there: no push; see dialog.ts). */
  deskActive?: () => boolean;
  /** The agent's limit on a typed answer (shared FREE_TEXT_MAX_CHARS). */
  freeTextMaxChars: number;
  /** How long after a typed answer shows Enter waits (the agent's paste settle, free-text.ts). */
  enterAfterPasteMs?: number;
  log: (line: string) => void;
  settleMs?: number;
  retryMs?: number;
}): DialogBridge {
  const settleMs = options.settleMs ?? DIALOG_SETTLE_MS;
  let raised: Raised | null = null;
  /** Identity of the question on screen that must not be raised (covered by a hook, or answered). */
  let ignored: string | null = null;
  let candidate: { identity: string; timer: ReturnType<typeof setTimeout> } | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  /** A typed answer is on its way into the field: the screen changes under it, nothing is raised. */
  let typing = false;

  const dropCandidate = () => {
    if (candidate) clearTimeout(candidate.timer);
    candidate = null;
  };
  /** No longer open here (the registry's handle is closed by whoever settles it). */
  const close = (): Raised | null => {
    const was = raised;
    raised = null;
    if (retry) clearTimeout(retry);
    retry = null;
    return was;
  };
  const withdraw = (reason: string) => {
    const was = close();
    if (!was) return;
    options.log(`dialog "${was.dialog.title}": withdrawn (${reason})`);
    was.handle.withdraw(reason);
  };
  /** The dialog left the screen: someone answered it in claude itself (first answer wins on the hub). */
  const answeredAtDesk = () => {
    const was = close();
    if (!was) return;
    options.log(`dialog "${was.dialog.title}": answered at the desk`);
    void was.handle.answeredAtDesk();
  };

  /** Until the hub took it (the link may not be registered yet: start-up dialogs come before
   *  SessionStart), asked again every retryMs; one it withdrew meanwhile is asked under a new id. */
  const send = async (entry: Raised) => {
    retry = null;
    const ok = await entry.handle.send();
    if (raised !== entry || stopped) return;
    if (ok) {
      options.log(`dialog "${entry.dialog.title}": asked on the hub (${entry.handle.request.id})`);
      return;
    }
    retry = setTimeout(() => void send(entry), options.retryMs ?? RETRY_MS);
  };

  /** The hub's answer: pressed while that very dialog is on screen. */
  const answered = (entry: Raised, answer: Answer) => {
    if (raised !== entry) return;
    entry.handle.close();
    const was = close()!;
    ignored = was.dialog.identity; // answered: never asked again while it stays on screen
    if (answer.text !== undefined) {
      void typeAnswer(was, answer.text, answer.choice);
      return;
    }
    void options.read().then((now) => {
      if (!stopped) pressChosen({ now, was: was.dialog, choice: answer.choice, write: options.write, log: options.log });
    });
  };

  /** The person's words into the dialog's field; not typed → asked again with why, if it is still up. */
  const typeAnswer = async (was: Raised, text: string, choice: string | undefined) => {
    const toOption = choice ?? was.dialog.freeText?.key;
    const problem = dialogAnswerProblem(inputOf(was.dialog), { decision: 'allow', text, choice: toOption });
    typing = true;
    const result = problem ? { ok: false as const, typed: false, reason: `${problem}; nothing was typed` } : await typeFreeText({ was: was.dialog, text, choice: toOption, read: options.read, write: options.write, ...(options.enterAfterPasteMs ? { enterAfterMs: options.enterAfterPasteMs } : {}) });
    typing = false;
    if (stopped) return;
    if (result.ok) {
      options.log(`dialog "${was.dialog.title}": a typed answer (${text.length} characters) entered from the hub`);
      return;
    }
    options.log(`dialog "${was.dialog.title}": the typed answer was not entered: ${result.reason}`);
    const now = await options.read();
    if (stopped || raised || !now) return;
    ignored = null;
    raise(now, result.reason);
  };

  const inputOf = (dialog: ScreenDialog, notice?: string): DialogInput => {
    const field = dialog.freeText;
    return {
      title: dialog.title,
      text: dialog.text,
      // A dialog that is one field has no options; its field's option is no button of its own.
      options: dialog.options,
      ...(dialog.headline ? { headline: dialog.headline } : {}),
      ...(dialog.about ? { about: dialog.about } : {}),
      ...(field ? { freeText: { ...(field.key ? { key: field.key } : {}), ...(field.notes ? { notes: true as const } : {}), maxChars: options.freeTextMaxChars, ...(field.placeholder ? { placeholder: field.placeholder } : {}) } } : {}),
      ...(notice ? { notice: notice.slice(0, 400) } : {}),
      ...(options.deskActive?.() ? { openedAtDesk: true } : {}),
    };
  };

  const raise = (dialog: ScreenDialog, notice?: string) => {
    const input = inputOf(dialog, notice);
    const request: PendingRequest = { id: crypto.randomUUID(), sessionId: options.sessionId(), kind: 'dialog', toolName: DIALOG_TOOL_NAME, toolInput: input, toolUseId: null, createdAt: Date.now() };
    const entry = { dialog } as Raised;
    entry.handle = options.requests.open({ request, onAnswer: (answer) => answered(entry, answer) });
    raised = entry;
    void send(entry);
  };

  const seen = (dialog: ScreenDialog | null): void => {
    if (stopped || typing) return;
    if (!dialog) {
      dropCandidate();
      ignored = null;
      answeredAtDesk();
      return;
    }
    if (options.covered(dialog)) {
      // claude draws its own dialog for a request the hub already has: that request is the question.
      ignored = dialog.identity;
      dropCandidate();
      // Raised a moment before the hook's request arrived: the hook's request is the one to answer.
      if (raised) withdraw('a hook request covers it');
      return;
    }
    if (dialog.identity === ignored) return;
    ignored = null;
    if (raised) {
      if (raised.dialog.identity === dialog.identity) return;
      withdraw('another dialog replaced it');
    }
    if (candidate?.identity === dialog.identity) return;
    dropCandidate();
    const identity = dialog.identity;
    if (options.closing?.()) {
      candidate = { identity, timer: setTimeout(() => lookAgain(), CLOSING_LOOK_AGAIN_MS) };
      return;
    }
    candidate = {
      identity,
      timer: setTimeout(() => {
        candidate = null;
        void options.read().then((again) => {
          if (stopped || raised || typing) return;
          if (again?.identity === identity && !options.covered(again) && ignored !== identity) raise(again);
          else seen(again);
        });
      }, settleMs),
    };
  };

  /** The screen read afresh and taken as if just seen (the closing window may have passed). */
  const lookAgain = () => {
    candidate = null;
    void options.read().then((again) => {
      if (!stopped) seen(again);
    });
  };

  return {
    seen,
    stop: () => {
      stopped = true;
      dropCandidate();
      if (retry) clearTimeout(retry);
      raised?.handle.close();
    },
  };
}

/** The hub's answer, pressed: the chosen option's keys, only while that very dialog is on screen. */
function pressChosen(o: { now: ScreenDialog | null; was: ScreenDialog; choice: Answer['choice']; write: (keys: string) => void; log: (line: string) => void }): void {
  if (o.now?.signature !== o.was.signature) {
    o.log(`dialog "${o.was.title}": answered on the hub after it left the screen; nothing pressed`);
    return;
  }
  const keys = o.choice === undefined ? null : keysFor(o.now, o.choice);
  if (!keys) {
    o.log(`dialog "${o.was.title}": the answer names no option of it; nothing pressed`);
    return;
  }
  o.write(keys);
  o.log(`dialog "${o.was.title}": option ${o.choice} chosen on the hub`);
}
