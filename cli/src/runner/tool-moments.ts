// tool-moments.ts: where each tool call happened in this runner's PTY, so the phone can open the
// terminal at that moment ("Show in terminal" on a tool card).
//
//   PreToolUse / PostToolUse hook ──started / ended(id)──► moment = PTY offset now (+ a mark in the screen model)
//   transcript tool_use / tool_result ──stamp()──► block.terminalOffset {run, start, end?} ──► chat
//
// claude skips the PreToolUse/PostToolUse hooks for read-only tools (hooks/settings.ts: each HTTP
// hook call costs ~20 ms), so for those the moment is when the runner reads the transcript line:
// at most the fallback poll (250 ms) after claude wrote it, by which time a read is usually drawn
// with its result. Re-adding hooks for reads would buy a few hundred ms of precision at 20 ms per read.
// The screen model marks every moment, so a snapshot can tell a late viewer which row it was.
// Invariants: each call's start and end are taken once (the first of hook and transcript line
// wins), start <= end. A transcript line read long after claude wrote it (a resume re-reading old
// lines) is history from another terminal: it gets no moment rather than a wrong one.
import type { ChatMessageInput, ContentBlock, TerminalMoment } from '@tether/shared';

/** Calls remembered (the oldest are forgotten first); a card's moment is stamped within seconds. */
const MAX_CALLS = 512;
/** A transcript line read later than this after its timestamp was not written during this run's
 *  terminal (the tail polls every 250 ms; hooks make it read at once). */
const LIVE_LINE_MS = 10_000;

type Call = { start?: number; end?: number };

export type ToolMoments = ReturnType<typeof createToolMoments>;

export function createToolMoments(options: {
  /** This PTY's id (terminal-stream.ts sends it with snapshots). */
  run: string;
  /** PTY bytes so far: the moment's offset. */
  offset: () => number;
  /** Marks the screen model at that offset (screen.mark()). */
  mark: () => void;
  now?: () => number;
}) {
  const calls = new Map<string, Call>();
  const now = options.now ?? Date.now;

  const take = (id: string, phase: keyof Call): Call => {
    let call = calls.get(id);
    if (!call) {
      call = {};
      calls.set(id, call);
      if (calls.size > MAX_CALLS) calls.delete(calls.keys().next().value!);
    }
    if (call[phase] === undefined) {
      call[phase] = options.offset();
      options.mark();
    }
    return call;
  };
  const momentOf = (call: Call): TerminalMoment | undefined => {
    const start = call.start ?? call.end;
    if (start === undefined) return undefined;
    return call.end === undefined ? { run: options.run, start } : { run: options.run, start, end: call.end };
  };
  const stampBlock = (block: ContentBlock, live: boolean): ContentBlock => {
    if (block.type !== 'tool_use' && block.type !== 'tool_result') return block;
    const id = block.type === 'tool_use' ? block.id : block.toolUseId;
    const call = live ? take(id, block.type === 'tool_use' ? 'start' : 'end') : calls.get(id);
    const moment = call ? momentOf(call) : undefined;
    return moment ? { ...block, terminalOffset: moment } : block;
  };

  return {
    /** PreToolUse: claude is about to run the call. */
    started(toolUseId: string) {
      take(toolUseId, 'start');
    },
    /** PostToolUse: the call finished. */
    ended(toolUseId: string) {
      take(toolUseId, 'end');
    },
    /** The messages with each tool block's moment (taken now for calls no hook reported). */
    stamp<M extends ChatMessageInput>(messages: M[]): M[] {
      return messages.map((message) => {
        if (!message.content.some((block) => block.type === 'tool_use' || block.type === 'tool_result')) return message;
        const live = now() - message.createdAt <= LIVE_LINE_MS;
        return { ...message, content: message.content.map((block) => stampBlock(block, live)) };
      });
    },
  };
}
