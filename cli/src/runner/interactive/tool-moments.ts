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
  /** Marks the screen model at that offset (screen.mark()); `shows` is text that is on screen once
   *  claude has drawn the call (its still waits for it: screen-parser.ts). */
  mark: (shows?: string) => void;
  now?: () => number;
}) {
  const calls = new Map<string, Call>();
  const now = options.now ?? Date.now;

  const take = (id: string, phase: keyof Call, shows?: string): Call => {
    let call = calls.get(id);
    if (!call) {
      call = {};
      calls.set(id, call);
      if (calls.size > MAX_CALLS) calls.delete(calls.keys().next().value!);
    }
    if (call[phase] === undefined) {
      call[phase] = options.offset();
      options.mark(shows);
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
    /** PreToolUse: claude is about to run the call (`toolInput`: the hook's, to recognise it drawn). */
    started(toolUseId: string, toolInput?: unknown) {
      take(toolUseId, 'start', callShows(toolInput));
    },
    /** PostToolUse: the call finished. */
    ended(toolUseId: string, toolInput?: unknown) {
      take(toolUseId, 'end', callShows(toolInput));
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

/** Text claude draws for a call: the first line of its first string input (a Bash command, a file
 *  path, a pattern), cut short, as claude cuts long ones. Agent-neutral: it only says "a value the
 *  user gave the call", which every TUI shows on the call's line. */
export function callShows(toolInput: unknown): string | undefined {
  if (!toolInput || typeof toolInput !== 'object') return undefined;
  for (const value of Object.values(toolInput)) {
    if (typeof value !== 'string') continue;
    const line = value.split('\n')[0]!.trim();
    // A path is drawn relative to the project more often than not: its file name is what shows.
    const shown = line.startsWith('/') && !/\s/.test(line) ? line.slice(line.lastIndexOf('/') + 1) : line;
    if (shown.length >= 3) return shown.slice(0, 24);
  }
  return undefined;
}
