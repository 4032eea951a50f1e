// expanded.ts: which folded things (tool cards, thoughts, subagent groups) the reader opened, kept
// outside the rows themselves. The chat is windowed: a row scrolled out of view unmounts, and an
// opened card must still be open when the reader scrolls back to it.
import { createContext, useCallback, useContext, useState } from 'react';

export type ExpandedItems = { isOpen(key: string): boolean; toggle(key: string): void };

export const ExpandedContext = createContext<ExpandedItems | null>(null);

/** The set of opened keys for one chat; provide it once above the list. */
export function useExpandedItems(): ExpandedItems {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback((key: string) => {
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);
  return { isOpen: (key) => open.has(key), toggle };
}

/** [open, toggle] for one folded thing; falls back to local state outside a provider. */
export function useExpanded(key: string): [boolean, () => void] {
  const shared = useContext(ExpandedContext);
  const [local, setLocal] = useState(false);
  if (shared) return [shared.isOpen(key), () => shared.toggle(key)];
  return [local, () => setLocal((v) => !v)];
}
