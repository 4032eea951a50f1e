// use-turn-end.ts: "refreshed at the end of each turn": calls `refresh` when the session goes from
// working (thinking, or waiting on a person) to idle, which is when claude's edits of that turn are
// all on disk. The first render never counts as an end.
import { useEffect, useRef } from 'react';
import type { SessionStatus } from '@tether/shared';

export function useTurnEnd(status: SessionStatus, refresh: () => void): void {
  const previous = useRef(status);
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if ((was === 'thinking' || was === 'waiting') && status === 'idle') latest.current();
  }, [status]);
}
