// haptics.ts: a short vibration when something needs the person (a request arrives in an open tab)
// and when their answer was taken, on devices that vibrate. Never when the person asked the system
// for reduced motion, never from a tab that is not on screen.

const PATTERNS = {
  /** Two short pulses: someone is asking. */
  request: [30, 60, 30],
  /** One tick: the answer went through. */
  accepted: [15],
} as const;

export function buzz(what: keyof typeof PATTERNS): void {
  if (typeof navigator === 'undefined' || typeof navigator.vibrate !== 'function') return;
  if (document.visibilityState !== 'visible') return;
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
  navigator.vibrate([...PATTERNS[what]]);
}
