// transcript.bench.ts: how fast the runner turns a transcript into chat (`transcript_parse_mb_s`).
// Generates a realistic ~50 MB transcript (claude 2.1.197 line shapes: prompts, thinking, text, tool_use,
// tool_results with long outputs, attachment/system noise) in a temp file, then times read + split +
// parseTranscriptLine over every line. That is the cost of `--resume` on a long session.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTranscriptLine } from '../cli/src/agents/claude/transcript/parse.ts';

/** The size the issue asks for: big enough that per-call overhead and GC show, small enough for CI. */
const TARGET_BYTES = 50 * 1024 * 1024;
/** Median of a few runs: one run is at the mercy of GC and the other core's load. */
const RUNS = 3;

const SESSION = '5f0c2a9e-3b1d-4c7a-9e2f-1a2b3c4d5e6f';
const WORDS = 'the a file function test returns value error build output line config session hub runner claude chat tool result prompt reply ünïcödé 日本語 ✓'.split(' ');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function generate(path: string): { bytes: number; lines: number } {
  const rand = rng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const uuid = () => crypto.randomUUID();
  let parent: string | null = null;
  let t = Date.parse('2026-01-01T00:00:00Z');
  const env = (type: string, extra: Record<string, unknown>) => {
    const id = uuid();
    t += 1 + Math.floor(rand() * 900);
    const line = {
      parentUuid: parent,
      isSidechain: false,
      type,
      ...extra,
      uuid: id,
      timestamp: new Date(t).toISOString(),
      userType: 'external',
      entrypoint: 'cli',
      cwd: '/home/dev/proj',
      sessionId: SESSION,
      version: '2.1.197',
      gitBranch: 'main',
    };
    parent = id;
    return JSON.stringify(line);
  };
  const assistant = (block: unknown, stop: string | null) =>
    env('assistant', {
      message: {
        model: 'claude-opus-4-8',
        id: `msg_${uuid()}`,
        type: 'message',
        role: 'assistant',
        content: [block],
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: 1803, cache_creation_input_tokens: 0, cache_read_input_tokens: 9000, output_tokens: 50, service_tier: 'standard' },
      },
      requestId: `req_${uuid()}`,
    });

  const fd = openSync(path, 'w');
  let bytes = 0;
  let lines = 0;
  const write = (line: string) => {
    const buf = Buffer.from(`${line}\n`, 'utf8');
    writeSync(fd, buf);
    bytes += buf.length;
    lines++;
  };
  try {
    while (bytes < TARGET_BYTES) {
      write(env('user', { message: { role: 'user', content: words(5 + Math.floor(rand() * 60)) }, promptId: uuid(), permissionMode: 'default', origin: { kind: 'human' }, promptSource: 'typed' }));
      write(env('attachment', { attachment: { type: 'skill_listing', content: words(300), skillCount: 12 } }));
      write(assistant({ type: 'thinking', thinking: words(40 + Math.floor(rand() * 200)), signature: 'EqQBCkgIBxABGAIiQL'.repeat(20) }, null));
      const tools = Math.floor(rand() * 4);
      for (let i = 0; i < tools; i++) {
        const id = `toolu_${uuid().replaceAll('-', '')}`;
        const tool = pick(['Bash', 'Read', 'Edit', 'Grep'] as const);
        const input = tool === 'Edit' ? { file_path: '/home/dev/proj/src/a.ts', old_string: words(80), new_string: words(90) } : { command: `ls ${words(3)}`, description: words(6) };
        const use = assistant({ type: 'tool_use', id, name: tool, input }, 'tool_use');
        write(use);
        // Long tool outputs dominate real transcripts (file reads, test logs): 2-60 KB each.
        const out = Array.from({ length: 20 + Math.floor(rand() * 600) }, (_, n) => `${n + 1}\t${words(12)}`).join('\n');
        write(env('user', { message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: out, is_error: rand() < 0.05 }] }, toolUseResult: { stdout: out, stderr: '', interrupted: false, isImage: false, noOutputExpected: false }, sourceToolAssistantUUID: parent }));
        write(env('attachment', { attachment: { type: 'hook_success', hookName: `PostToolUse:${tool}`, toolUseID: id, hookEvent: 'PostToolUse', stdout: '', stderr: '', exitCode: 0, command: 'tether hook', durationMs: 40 } }));
      }
      write(assistant({ type: 'text', text: words(30 + Math.floor(rand() * 300)) }, 'end_turn'));
      write(env('system', { subtype: 'turn_duration', durationMs: 2104, isMeta: false }));
      write(JSON.stringify({ type: 'file-history-snapshot', messageId: uuid(), snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false }));
    }
  } finally {
    closeSync(fd);
  }
  return { bytes, lines };
}

export async function run(): Promise<Array<{ name: string; value: number; unit: string } & Record<string, unknown>>> {
  const dir = mkdtempSync(join(tmpdir(), 'tether-bench-transcript-'));
  try {
    const path = join(dir, 'session.jsonl');
    const { bytes, lines } = generate(path);
    const rates: number[] = [];
    let messages = 0;
    for (let r = 0; r < RUNS; r++) {
      const started = performance.now();
      const all = readFileSync(path, 'utf8').split('\n');
      messages = 0;
      for (const line of all) messages += parseTranscriptLine(line).length;
      const seconds = (performance.now() - started) / 1000;
      rates.push(bytes / (1024 * 1024) / seconds);
    }
    rates.sort((a, b) => a - b);
    const median = rates[Math.floor(rates.length / 2)] ?? 0;
    return [{ name: 'transcript_parse_mb_s', value: Math.round(median * 10) / 10, unit: 'MB/s', bytes, lines, messages, runs: RUNS }];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
