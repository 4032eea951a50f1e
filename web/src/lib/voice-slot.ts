// voice-slot.ts: where the composer takes its voice controls from. Features do not import each
// other, so the chat route hands the composer the (lazily loaded) voice feature through this
// context; without a provider the composer has no microphone (a share link's read-only view).
import { createContext, type ComponentType } from 'react';

export type ComposerVoiceProps = {
  sessionId: string;
  /** Dictated words, to add to what is typed. */
  onText: (text: string) => void;
};

export const ComposerVoiceContext = createContext<ComponentType<ComposerVoiceProps> | null>(null);
