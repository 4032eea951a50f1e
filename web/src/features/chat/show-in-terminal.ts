// show-in-terminal.ts: how a tool card opens the terminal at its call. The route that renders the
// chat says where the terminal is (the chat knows nothing of routes or of the terminal feature);
// without it (a share link's read-only chat) cards show no button.
import { createContext, useContext } from 'react';
import type { TerminalMoment } from '@tether/shared';

/** `tool` and `hint` (its command or file name) let the terminal find the call's row to highlight. */
export type ShowInTerminal = (jump: { moment: TerminalMoment; tool: string; hint: string }) => void;

export const ShowInTerminalContext = createContext<ShowInTerminal | null>(null);

export function useShowInTerminal(): ShowInTerminal | null {
  return useContext(ShowInTerminalContext);
}
