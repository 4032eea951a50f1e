// subagents.ts: follows every subagent transcript of one claude session.
// claude writes each subagent (Task/Agent tool) to `<project>/<sessionId>/subagents/agent-<agentId>.jsonl`,
// a directory that appears only when the first subagent starts. This finds new files by polling the
// directory and tails each with tailTranscript, so the same exactly-once / partial-line rules hold.
// Invariant: one tail per file, all released by stop().
import fs from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { steadyPoll, type Poll } from '../pace/pace.ts';
import { TRANSCRIPT_POLL_MS, type TranscriptTail, tailTranscript } from './tail.ts';

const AGENT_FILE_RE = /^agent-.+\.jsonl$/;

export interface TailSubagentsOptions {
  /** The `subagents` directory; see subagentDirFor. */
  dir: string;
  /** Per-file start offsets by file name (`agent-<id>.jsonl`), from earlier `offsets()`. */
  fromOffsets?: Record<string, number>;
  onLines: (lines: string[], endOffset: number, path: string) => void;
  onError?: (err: unknown) => void;
  pollMs?: number;
  /** How the directory scan and each file's backstop poll are timed (see tail.ts). */
  poll?: Poll;
}

export interface SubagentTails {
  stop(): void;
  /** End offset per file name, to resume later. */
  offsets(): Record<string, number>;
}

/** `<project>/<sessionId>.jsonl` → `<project>/<sessionId>/subagents`. */
export function subagentDirFor(transcriptPath: string): string {
  return join(dirname(transcriptPath), basename(transcriptPath, '.jsonl'), 'subagents');
}

export function tailSubagents(options: TailSubagentsOptions): SubagentTails {
  const { dir, onLines, onError = () => {} } = options;
  const pollMs = options.pollMs ?? TRANSCRIPT_POLL_MS;
  const tails = new Map<string, TranscriptTail>();
  let stopped = false;
  let scanning = false;

  const scan = async () => {
    if (stopped || scanning) return;
    scanning = true;
    try {
      // Synchronous: see tail.ts's stat (usually the directory is not there: one failed open).
      let names: string[] = [];
      try {
        names = fs.readdirSync(dir);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') onError(err);
      }
      if (stopped) return;
      for (const name of names) {
        if (!AGENT_FILE_RE.test(name) || tails.has(name)) continue;
        const path = join(dir, name);
        tails.set(
          name,
          tailTranscript({
            path,
            fromOffset: options.fromOffsets?.[name] ?? 0,
            onLines: (lines, endOffset) => onLines(lines, endOffset, path),
            onError,
            pollMs,
            ...(options.poll ? { poll: options.poll } : {}),
          }),
        );
      }
    } finally {
      scanning = false;
    }
  };

  const stopPoll = (options.poll ?? steadyPoll)({ everyMs: pollMs, tick: () => void scan() });
  void scan();

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      stopPoll();
      for (const tail of tails.values()) tail.stop();
      tails.clear();
    },
    offsets() {
      const out: Record<string, number> = { ...options.fromOffsets };
      for (const [name, tail] of tails) out[name] = tail.offset();
      return out;
    },
  };
}
