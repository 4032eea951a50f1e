import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps one page's state: each test loads it afresh under fake timers (no DOM here, so
// a mark counts as painted at once, as in a hidden tab).
async function load() {
  vi.resetModules();
  return import('./first-screen.ts');
}

function track(promise: Promise<void>): () => boolean {
  let done = false;
  void promise.then(() => (done = true));
  return () => done;
}

describe('first screen', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('is painted at the mark and settled after the quiet moment', async () => {
    const screen = await load();
    const painted = track(screen.firstScreenPainted());
    const settled = track(screen.afterFirstScreen());
    await vi.advanceTimersByTimeAsync(1_000);
    expect([painted(), settled()]).toEqual([false, false]);
    screen.markFirstScreen();
    await vi.advanceTimersByTimeAsync(0);
    expect([painted(), settled()]).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(250);
    expect(settled()).toBe(true);
  });

  it('waits for the next screen when a session is opened in the quiet moment', async () => {
    const screen = await load();
    const settled = track(screen.afterFirstScreen());
    screen.markFirstScreen(); // the list
    await vi.advanceTimersByTimeAsync(100);
    screen.screenOpening(); // a tap on a row
    await vi.advanceTimersByTimeAsync(1_000);
    expect(settled()).toBe(false);
    screen.markFirstScreen(); // the chat's first messages
    await vi.advanceTimersByTimeAsync(250);
    expect(settled()).toBe(true);
  });

  it('settles by the cap when no screen ever says it is drawn', async () => {
    const screen = await load();
    const settled = track(screen.afterFirstScreen());
    screen.markFirstScreen();
    screen.screenOpening();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled()).toBe(true);
  });
});
