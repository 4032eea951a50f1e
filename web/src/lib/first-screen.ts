// first-screen.ts: "what the person came for is on screen": the session list's rows, or an opened
// session's first messages. Work that page needs but not for that frame waits for it: on a phone's
// slow CPU every task run before it pushes the frame back (docs/decisions/web.md, "Opening a
// session"). Two moments:
//   painted: the first screen's frame is painted (what the next screen needs loads now: the
//     session screen's code while the list is read);
//   settled: painted, and the person stayed QUIET_MS on it without opening a session. A tap on the
//     list right after it appears moves the deferred work past the session's first screen instead
//     of onto its way (the rule proposals' zod schemas alone are ~200 ms of a slowed CPU).
// Said once per page load; a screen that never says it (the login page, a share page, a chat that
// failed to load) counts as settled after CAP_MS, so nothing waits forever.
//
//   session list rows drawn ─┐                     ┌─► firstScreenPainted()
//   chat's first messages ───┴─► markFirstScreen ──┤ (rAF, then a task)
//   session route's loader ──► screenOpening ──────┴─ QUIET_MS with no opening ─► afterFirstScreen()
//   CAP_MS after load ──────────────────────────────────────────────────────────► afterFirstScreen()
import { useEffect, useState } from 'react';

/** How long a person looks at a screen before the deferred work may run: less than a considered
 *  tap takes, more than a reflex one. */
const QUIET_MS = 250;
/** The latest the deferred work waits, first screen or not. */
const CAP_MS = 5_000;

let announce: () => void = () => {};
const settled = new Promise<void>((resolve) => (announce = resolve));
let announcePainted: () => void = () => {};
const painted = new Promise<void>((resolve) => (announcePainted = resolve));
/** `settled` has resolved (a component mounted later starts ready, with no render in between). */
let isSettled = false;
void settled.then(() => (isSettled = true));
/** Which mark is being waited on; an opening moves it on, so an older mark's timers do nothing. */
let mark = 0;
let waiting = false;

/** The screen the person came for was committed; its frame paints next. */
export function markFirstScreen(): void {
  if (isSettled || waiting) return;
  waiting = true;
  const current = ++mark;
  const afterPaint = () => {
    announcePainted();
    setTimeout(() => current === mark && announce(), QUIET_MS);
  };
  if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(afterPaint, 0));
  else afterPaint();
}

/** A session is being opened (touched, hovered or navigated to): deferred work not yet started
 *  waits for that session's first screen. */
export function screenOpening(): void {
  if (isSettled || !waiting) return;
  waiting = false;
  mark++;
}

setTimeout(() => announce(), CAP_MS);

/** Resolves once the first screen is painted. */
export function firstScreenPainted(): Promise<void> {
  return painted;
}

/** Resolves once the first screen is painted and the person settled on it (at once later on). */
export function afterFirstScreen(): Promise<void> {
  return settled;
}

/** False until afterFirstScreen: what renders only then. */
export function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(isSettled);
  useEffect(() => {
    let alive = true;
    void settled.then(() => alive && setReady(true));
    return () => {
      alive = false;
    };
  }, []);
  return ready;
}
