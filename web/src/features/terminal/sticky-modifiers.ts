// sticky-modifiers.ts: the sticky Ctrl / Alt of the quick keys, held until the next key typed
// (keys.ts applies them). The session terminal and a machine's shell hold them the same way.
import { useMemo, useRef, useState } from 'react';
import type { Modifiers } from './keys.ts';

const NONE: Modifiers = { ctrl: false, alt: false };

export type StickyModifiers = {
  held: Modifiers;
  toggle: (modifier: keyof Modifiers) => void;
  /** The modifiers as they are now, for handlers made once (xterm's, the controller's). */
  current: () => Modifiers;
  /** Lets go of both. */
  release: () => void;
  /** The modifiers one key uses: what is held now, then let go. */
  take: () => Modifiers;
};

export function useStickyModifiers(): StickyModifiers {
  const [held, setHeld] = useState<Modifiers>(NONE);
  const heldRef = useRef(held);
  heldRef.current = held;
  // Stable functions: the terminal's handlers are made once per connection.
  const actions = useMemo(
    () => ({
      toggle: (modifier: keyof Modifiers) => setHeld((current) => ({ ...current, [modifier]: !current[modifier] })),
      current: () => heldRef.current,
      release: () => setHeld(NONE),
      take: () => {
        const mods = heldRef.current;
        if (mods.ctrl || mods.alt) setHeld(NONE);
        return mods;
      },
    }),
    [],
  );
  return { held, ...actions };
}
