// use-now.ts: a clock for relative times ("5m ago") that ticks while the page is visible.
import { useEffect, useState } from 'react';

/** Relative times only change by the minute; ticking more often just burns a phone's battery. */
const NOW_TICK_MS = 30_000;

export function useNow(tickMs: number = NOW_TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === 'visible') setNow(Date.now());
    };
    const id = setInterval(tick, tickMs);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(id);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [tickMs]);
  return now;
}
