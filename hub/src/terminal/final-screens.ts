// final-screens.ts: the registry's FinalScreenPort on the hub's store: the last screen of an ended
// session survives its room (evicted past MAX_ENDED_ROOMS) and hub restarts.
import type { Namespace, TerminalSnapshot } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FinalScreenPort } from './registry.ts';

/** Final screens kept per namespace (the newest). One is ~10–200 KiB of ANSI: ≤ ~100 MB at worst. */
export const KEPT_FINAL_SCREENS = 500;

export function storedFinalScreens(options: { store: Store; now?: () => number }): FinalScreenPort {
  const { store } = options;
  const now = options.now ?? Date.now;
  return {
    save: (namespace: Namespace, sessionId: string, s: TerminalSnapshot) =>
      store.saveFinalScreen({ namespace, sessionId, screen: { offset: s.offset, cols: s.cols, rows: s.rows, data: s.data, savedAt: now() }, keep: KEPT_FINAL_SCREENS }),
    load: async (namespace, sessionId) => {
      const saved = await store.getFinalScreen({ namespace, sessionId });
      return saved ? { sessionId, offset: saved.offset, cols: saved.cols, rows: saved.rows, data: saved.data } : null;
    },
    forget: (namespace, sessionId) => store.deleteFinalScreen({ namespace, sessionId }),
  };
}
