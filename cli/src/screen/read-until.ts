// read-until.ts: reading an agent's screen again and again until it shows what a key asked for: the
// drivers of its pickers (Codex's /model, opencode's /models) press a key, then wait here for the
// redraw before the next.
import type { ScreenRow } from './prompt-state.ts';
import type { ScreenModel } from './screen.ts';

/** What `seen` finds on the screen once it does, or null (its last reading) when `ms` passed first. */
export async function readScreenUntil<T>(o: { screen: Pick<ScreenModel, 'state'>; seen: (rows: readonly ScreenRow[]) => T | null; ms: number; pollMs: number }): Promise<T | null> {
  const deadline = Date.now() + o.ms;
  for (;;) {
    const found = o.seen((await o.screen.state()).lines);
    if (found !== null || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, o.pollMs));
  }
}
