// turns.ts: the prompts of a headless session (no terminal), one turn at a time, whatever
// carries them to the agent (claude's stream-json stdin, Codex's app-server turn/start). A prompt
// is sent once, never retyped; the transcript's user line confirms it (matchPrompt), and what is
// still held when the session ends goes back to its sender (sent) or is dropped (queued).
//
//   hub prompt:deliver ─► claim ─► enqueue ─(ready, no turn running)─► send ─► agent
//   agent: turn over ─► turnEnded ─► pump (the next one)      transcript user line ─► matchPrompt
import type { PromptStatus } from '@tether/shared';
import { normalizePromptText } from '../session/prompt-text.ts';

type Item<C> = { promptId: string; text: string; content: C; state: 'queued' | 'sent' };

export type HeadlessTurns<C> = ReturnType<typeof createHeadlessTurns<C>>;

export function createHeadlessTurns<C>(o: {
  report: (promptId: string, status: Exclude<PromptStatus, 'queued'>, reason?: string | null) => void;
  /** Carries one prompt to the agent as a new turn. */
  send: (item: { promptId: string; text: string; content: C }) => void;
  /** False while nothing can carry a turn yet (no input attached). */
  canSend?: () => boolean;
  /** A turn was sent: the session thinks. */
  onTurnSent: () => void;
}) {
  let ready = false;
  let turnBusy = false;
  const queue: Item<C>[] = [];
  const seen = new Set<string>();
  const pump = () => {
    if (!ready || turnBusy || (o.canSend && !o.canSend())) return;
    const next = queue.find((item) => item.state === 'queued');
    if (!next) return;
    next.state = 'sent';
    turnBusy = true;
    o.report(next.promptId, 'typing');
    o.send({ promptId: next.promptId, text: next.text, content: next.content });
    o.onTurnSent();
  };
  return {
    ready: () => ready,
    busy: () => turnBusy,
    /** The agent can take turns now. */
    becameReady() {
      ready = true;
      pump();
    },
    /** A prompt id from the hub, taken once (the hub may deliver again after a reconnect): false
     *  when it was taken before. */
    claim(promptId: string): boolean {
      if (seen.has(promptId)) return false;
      seen.add(promptId);
      return true;
    },
    /** A claimed prompt, its files fetched: it goes when no turn runs. */
    enqueue(item: { promptId: string; text: string; content: C }) {
      queue.push({ ...item, state: 'queued' });
      pump();
    },
    /** A turn started, this session's or one the agent took from elsewhere (its TUI joined at the
     *  desk): no prompt is sent until it is over. */
    turnStarted() {
      turnBusy = true;
    },
    /** The agent's turn is over. A sent prompt stays until the transcript shows it: the end of a
     *  turn usually arrives before the tailer's next poll reads the user line. */
    turnEnded() {
      turnBusy = false;
    },
    pump,
    /** The transcript's user line confirms the prompt that was sent with this text. */
    matchPrompt(text: string): string | null {
      const wanted = normalizePromptText(text);
      const item = queue.find((i) => i.state === 'sent' && normalizePromptText(i.text) === wanted);
      if (!item) return null;
      queue.splice(queue.indexOf(item), 1);
      o.report(item.promptId, 'delivered');
      return item.promptId;
    },
    /** Every prompt still held goes back (sent) or is dropped (queued), with `why`. */
    close(why: { sent: string; queued: string }) {
      for (const item of queue.splice(0)) o.report(item.promptId, item.state === 'sent' ? 'returned' : 'dropped', item.state === 'sent' ? why.sent : why.queued);
    },
  };
}
