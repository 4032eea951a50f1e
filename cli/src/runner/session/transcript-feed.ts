// transcript-feed.ts: the agent's transcript (and its subagents' sidechains) → chat on the hub. Tails
// the file the agent named, reads lines with the agent's reader, stamps and chunks the messages for
// the outbox, and publishes what the lines say beyond chat (a tool call refused, the model switched,
// an interrupt, the tokens used) to the session core. It also answers "what did the model send?" for hub requests
// whose hook payload leaves the input out (claude's ExitPlanMode without its plan).
//
//   tail(path) ──lines──► agent.transcript().read ──► stamp ──► message:append (chunks of APPEND_CHUNK)
//                                                 └─► tool results, model, plan file, interrupts, usage
import { readFileSync } from 'node:fs';
import type { ChatMessageInput, SessionUsage } from '@tether/shared';
import type { Agent, TranscriptReader } from '../../agents/agent.ts';
import type { Poll } from '../../pace/pace.ts';
import { tailTranscript, type TranscriptTail } from '../../transcript/tail.ts';
import { tailSubagents, type SubagentTails } from '../../transcript/subagents.ts';

/** Chat messages per message:append (the hub's cap is MAX_MESSAGES_PER_BATCH; stay under it). */
const APPEND_CHUNK = 100;
/** A transcript interrupt read this soon after the agent wrote it ends the turn now running. */
const LIVE_INTERRUPT_MS = 10_000;
/** Tool inputs remembered from the transcript for describing hub requests. */
const MODEL_INPUTS_KEPT = 64;
/** How long a plan request waits for claude to write the plan's tool_use line to the transcript. */
const PLAN_LOOKUP_MS = 1_000;
/** A plan file larger than this is cut for the phone (the hub caps a request's size). */
const PLAN_MAX_CHARS = 100_000;

export type TranscriptFeed = ReturnType<typeof createTranscriptFeed>;

export function createTranscriptFeed(init: {
  agent: Agent;
  log: (line: string) => void;
  poll: Poll;
  /** Sends chat messages to the hub (message:append), already chunked. */
  append: (messages: ChatMessageInput[]) => void;
  /** The runner's prompt that a transcript user line confirms (its id), or null. */
  matchPrompt: (text: string) => string | null;
  stampMessages?: <M extends ChatMessageInput>(messages: M[]) => M[];
  /** A tool call's result: `rejected` when the person refused it. */
  onToolResult: (result: { toolUseId: string; rejected: boolean }) => void;
  /** The agent wrote that it was interrupted, just now. */
  onInterrupted: () => void;
  /** The agent wrote that its turn is over (only agents whose transcript says so). */
  onTurnEnded?: () => void;
  onModel: (model: string) => void;
  /** The session's token usage changed (at most once per read, main or subagent lines). */
  onUsage: (usage: SessionUsage) => void;
  /** The agent said it is at its usage limit (or answered again: null). */
  onLimit: (limit: { resetsAt: number } | null) => void;
  /** A command typed into the agent ran to its end (claude's `/model <name>`: set or kept). */
  onCommandFinished: (finished: { command: '/model'; args: string; outcome: 'applied' | 'kept' }) => void;
  /** Main transcript lines were read up to `endOffset` (title, resume state). */
  onRead: (o: { lines: string[]; messages: ChatMessageInput[]; endOffset: number }) => void;
  /** Subagent lines were read (resume state). */
  onSubagentRead: () => void;
  /** The session's attachments folder, for a reader whose agent names files relative to it. */
  attachmentsFolder?: () => string;
}) {
  const { agent, log } = init;
  /** Made at the first follow, which knows what a resumed session had used. */
  let reader: TranscriptReader | null = null;
  let tail: TranscriptTail | null = null;
  let subagents: SubagentTails | null = null;
  let path: string | null = null;
  let offset = 0;
  const modelInputs = new Map<string, unknown>();
  let planFile: string | null = null;

  const append = (parsed: ChatMessageInput[]) => {
    const messages = init.stampMessages ? init.stampMessages(parsed) : parsed;
    for (let i = 0; i < messages.length; i += APPEND_CHUNK) init.append(messages.slice(i, i + APPEND_CHUNK));
  };
  const onLines = (lines: string[], endOffset: number) => {
    const read = reader!.read(lines, { matchPrompt: init.matchPrompt, onBadLine: (reason) => log(`transcript: ${reason}`) });
    append(read.messages);
    // An interrupt ends the turn without a Stop hook; lines read long after they were written (a
    // resume re-reading history) are not this turn's.
    if (read.messages.some((m) => Date.now() - m.createdAt <= LIVE_INTERRUPT_MS && m.content.some((b) => b.type === 'interrupt'))) init.onInterrupted();
    if (read.planFile) planFile = read.planFile;
    for (const message of read.messages) {
      for (const block of message.content) {
        if (block.type === 'tool_use') {
          modelInputs.set(block.id, block.input);
          if (modelInputs.size > MODEL_INPUTS_KEPT) modelInputs.delete(modelInputs.keys().next().value!);
        }
        if (block.type === 'tool_result') init.onToolResult({ toolUseId: block.toolUseId, rejected: agent.isRejectedToolResult(block) });
      }
    }
    if (read.turnEnded) init.onTurnEnded?.();
    if (read.model) init.onModel(read.model);
    for (const finished of read.commands) init.onCommandFinished(finished);
    if (read.usage) init.onUsage(read.usage);
    if (read.limit !== undefined) init.onLimit(read.limit);
    offset = endOffset;
    init.onRead({ lines, messages: read.messages, endOffset });
  };
  const onSubagentLines = (lines: string[]) => {
    const read = reader!.read(lines, { onBadLine: (reason) => log(`subagent transcript: ${reason}`) });
    append(read.messages);
    if (read.usage) init.onUsage(read.usage);
    init.onSubagentRead();
  };

  return {
    path: () => path,
    offset: () => offset,
    tailing: () => tail !== null,
    subagentOffsets: () => subagents?.offsets() ?? {},
    /** Tails `next` from `fromOffset` (its subagents from theirs). `usage`: what the session had used
     *  before those offsets (a resume), counted on from by the reader made at the first follow; a
     *  later follow (another file, after /clear) keeps counting where the reader is. The file already
     *  tailed, named again (claude's SessionStart after a compaction, auto or /compact), goes on where
     *  it is: read again from 0 it sent the whole chat again (8.5 MB at ~850 turns, +15 MB RSS in the
     *  soak) and fed every old line to the reader a second time. Returns whether it switched. */
    follow(o: { path: string; fromOffset: number; subagentOffsets?: Record<string, number>; usage?: SessionUsage | null }): boolean {
      if (tail && o.path === path) return false;
      reader ??= agent.transcript({ usage: o.usage ?? null, ...(init.attachmentsFolder ? { attachmentsFolder: init.attachmentsFolder() } : {}) });
      path = o.path;
      offset = o.fromOffset;
      if (!tail) tail = tailTranscript({ path: o.path, fromOffset: o.fromOffset, onLines, onError: (error) => log(`transcript: ${String(error)}`), poll: init.poll });
      else tail.switchTo(o.path, o.fromOffset);
      subagents?.stop();
      subagents = null;
      if (!agent.subagentDir) return true;
      subagents = tailSubagents({
        dir: agent.subagentDir(o.path),
        ...(o.subagentOffsets ? { fromOffsets: o.subagentOffsets } : {}),
        onLines: onSubagentLines,
        onError: (error) => log(`subagent transcript: ${String(error)}`),
        poll: init.poll,
      });
      return true;
    },
    /** Reads what was written since the last read. */
    poke: async () => {
      await tail?.poke();
    },
    /** ExitPlanMode without a plan (claude 2.1.330 keeps it in a plan file): the plan as the model
     *  sent it, or the plan file's text, so the phone can read what it approves. */
    async describe(o: { toolName: string; toolInput: Record<string, unknown>; toolUseId: string | null }): Promise<Record<string, unknown>> {
      if (o.toolName !== 'ExitPlanMode' || typeof o.toolInput.plan === 'string') return o.toolInput;
      // claude writes the tool_use line a moment after it asks: wait for it, briefly.
      const deadline = Date.now() + PLAN_LOOKUP_MS;
      while (o.toolUseId && !modelInputs.has(o.toolUseId) && Date.now() < deadline) {
        await tail?.poke();
        if (!modelInputs.has(o.toolUseId)) await new Promise((resolve) => setTimeout(resolve, 40));
      }
      const sent = o.toolUseId ? modelInputs.get(o.toolUseId) : undefined;
      if (sent && typeof sent === 'object' && typeof (sent as { plan?: unknown }).plan === 'string') return { ...o.toolInput, plan: (sent as { plan: string }).plan };
      if (!planFile) return o.toolInput;
      try {
        return { ...o.toolInput, plan: readFileSync(planFile, 'utf8').slice(0, PLAN_MAX_CHARS), planFilePath: planFile };
      } catch {
        return o.toolInput;
      }
    },
    stop() {
      tail?.stop();
      subagents?.stop();
    },
  };
}
