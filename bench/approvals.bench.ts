// approvals.bench.ts: what tether's hooks cost claude, measured from outside claude with the real
// CLI under a real `tether claude`, a real hub and an auto-answering phone. The hub is a `tether hub`
// process and the phone one of its own (phone/answerer.ts), as on a user's machine and phone: in the
// bench's process they waited on its other work (the desk's screen, the fake API).
//
//   fake Messages API ──tool_use──► claude ──PreToolUse (HTTP)──► runner
//                                         ──PermissionRequest (HTTP)──► runner ─► hub ─► phone (allows at once)
//                                         ◄── allow ──┘        runs the tool ──► next API request
//
// A tool call's cost is the gap between the API request that returned the tool_use and the next one
// (claude ran the tool and reported it). Samples alternate, in the same session, between a call
// claude asks about (`touch ask-N.txt`: answered by the phone) and one the user's settings allow
// (`touch rule-N.txt`, `Bash(touch rule-:*)`... so claude does not ask): the difference is the
// approval path, hook → hub → phone → claude runs the tool.
//
//   approval_overhead_ms_p50/p99: asked gap − median allowed gap, per asked sample.
//   readonly_allow_ms_p50: a Read with tether's hooks − a Read in a plain claude with no hooks
//     (median of each; two sessions, run alternately), i.e. what tether adds to a read-only tool.
//   hook_processes_per_tool_call: hook runs of tool events that claude recorded with a shell command
//     (not an http:// URL) in its transcript, per tool call; target 0.
//
// Codex the same way, with the real Codex against the fake Responses API (tests/fixtures/fake-openai)
// under `tether codex`: asked = `exec_command` escalated out of its sandbox (`touch ask-N.txt`: its
// PermissionRequest command hook → runner → hub → phone), allowed = the same kind of escalated call
// that the user's own rule allows (`mkdir rule-N`, `prefix_rule(pattern=["mkdir"], decision="allow")`
// in $CODEX_HOME/rules/: Codex asks nobody and runs no PermissionRequest hook). Both kinds run
// Codex's PreToolUse and PostToolUse hooks (command hooks: one process each, Codex has no HTTP hook),
// so the difference is the approval path alone: hook process spawn + runner + hub + phone + answer.
//
//   codex_approval_overhead_ms_p50/p99: asked gap − median allowed gap, per asked sample.
//
// Gemini the same way, with the real Gemini CLI against the fake Gemini API (tests/fixtures/fake-gemini)
// under `tether gemini`: tether runs it in yolo with a BeforeTool command hook (`tether hook
// permission-request`) for the tools plain gemini would ask about. Asked = `run_shell_command`
// (`touch ask-N.txt`) in the default mode, answered by the phone; allowed = the same call in a second
// session whose user settings allow `run_shell_command` by name (`tools.allowed`), so tether registers
// no BeforeTool hook for it and nobody is asked. Gemini allows a tool only by name, so the two kinds
// run in two sessions, one after the other; both pay the AfterTool hook process alike.
//
//   gemini_approval_overhead_ms_p50/p99, gemini_approval_tether_ms_p50/p99, gemini_hook_process_ms_p50.
//   TETHER_BENCH_APPROVALS=gemini (or claude,codex…) runs only those agents' sessions.
//
// The split (TETHER_BENCH_TIMINGS: the runner's hook server and `tether hook` append wall-clock
// times, see cli/src/hooks/bench-timings.ts; the phone stamps its own):
//   approval_tether_ms_p50/p99 (claude), codex_approval_tether_ms_p50/p99: tether's own share, from
//     the PermissionRequest reaching the runner's hook server to its answer leaving it, phone
//     answering at once: runner → hub → phone (to_phone) + phone → hub → runner (back); runner_in
//     (hook in → request emitted) and runner_out (hub's answer in → hook answer out) are the runner's.
//   agent_ms: overhead − tether share (medians): what the agent does around its hook that a call
//     its rules allow does not (claude: its HTTP hook and its own dialog; Codex: starting the hook
//     process, reported apart as codex_hook_process_ms since that process is tether's code).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_TIMINGS_ENV, wallNow, type HookTiming } from '../cli/src/hooks/bench-timings.ts';
import { startFakeAnthropic, text, toolUse, type FakeAnthropic, type ScriptTurn } from '../tests/fixtures/fake-anthropic/index.ts';
import { execCommand, startFakeOpenAI, text as codexText, type FakeOpenAI, type ScriptTurn as CodexTurn } from '../tests/fixtures/fake-openai/index.ts';
import { createClaudeSandbox, spawnClaudeInPty, type ClaudeSandbox } from '../tests/harness/claude.ts';
import { CODEX_READY, createCodexSandbox } from '../tests/harness/codex.ts';
import { shellCommand, startFakeGemini, text as geminiText, type ScriptTurn as GeminiTurn } from '../tests/fixtures/fake-gemini/index.ts';
import { createGeminiSandbox, FAKE_GEMINI_MODEL, GEMINI_READY } from '../tests/harness/gemini.ts';
import { makeTempHome, startHubProcess } from '../tests/harness/hub.ts';
import { startRunner, watchSession } from '../tests/harness/runner.ts';
import type { Answered } from './phone/answerer.ts';

type HubHandle = { url: string; token: string };

/** Tool calls per kind; 25 + 25 = the 50 tool calls in one session. */
const CALLS = 25;
const SESSION_TIMEOUT_MS = 240_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

/** Where the runner and its hook processes write their timings, and what the phone stamped. */
type Timings = { file: string; phone: Answered[] };

function timingsFile(): Timings {
  return { file: join(mkdtempSync(join(tmpdir(), 'tether-bench-timings-')), 'hooks.jsonl'), phone: [] };
}

function readTimings(t: Timings): HookTiming[] {
  const text = existsSync(t.file) ? readFileSync(t.file, 'utf8') : '';
  rmSync(join(t.file, '..'), { recursive: true, force: true });
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as HookTiming);
}

/** The phone, in a process of its own (phone/answerer.ts): answers every request of the session at
 *  once. */
async function answerAtOnce(o: { hub: HubHandle; sessionId: string; timings: Timings }): Promise<{ stop(): number }> {
  const file = join(o.timings.file, '..', 'phone.jsonl');
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 'phone', 'answerer.ts'), o.hub.url, o.hub.token, o.sessionId, file], { stdout: 'pipe', stderr: 'inherit' });
  const reader = child.stdout.getReader();
  let said = '';
  while (!said.includes('ready')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the bench phone exited before it connected');
    said += new TextDecoder().decode(value);
  }
  const read = (): Answered[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
  return {
    /** Ends the phone; how many requests it answered (its stamps are in `timings.phone`). */
    stop: () => {
      if (child.exitCode === null && !child.killed) {
        o.timings.phone = read();
        child.kill();
      }
      return o.timings.phone.length;
    },
  };
}

type Split = { tether: number[]; toPhone: number[]; back: number[]; hookProcess: number[]; hookConnect: number[]; runnerIn: number[]; runnerOut: number[]; clientStart: number[]; clientAnswered: number[] };

/** Per PermissionRequest, in order (one at a time in a session): the runner's edge times against the phone's. */
function splitOf(t: Timings): Split {
  const lines = readTimings(t);
  const server = lines.filter((l): l is Extract<HookTiming, { role: 'server' }> => l.role === 'server' && l.event === 'permission-request');
  const client = lines.filter((l): l is Extract<HookTiming, { role: 'client' }> => l.role === 'client' && l.event === 'permission-request');
  if (server.length !== t.phone.length) throw new Error(`timings: ${server.length} permission requests at the runner, ${t.phone.length} at the phone`);
  const runner = lines.filter((l): l is Extract<HookTiming, { role: 'runner' }> => l.role === 'runner' && l.event === 'permission-request');
  const split: Split = { tether: [], toPhone: [], back: [], hookProcess: [], hookConnect: [], runnerIn: [], runnerOut: [], clientStart: [], clientAnswered: [] };
  server.forEach((s, i) => {
    const phone = t.phone[i]!;
    split.tether.push(s.out - s.in);
    split.toPhone.push(phone.received - s.in);
    split.back.push(s.out - phone.answered);
    const r = runner[i];
    if (r) {
      split.runnerIn.push(r.sent - s.in);
      split.runnerOut.push(s.out - r.answered);
    }
  });
  client.forEach((c, i) => {
    split.hookProcess.push(c.sent - c.start);
    split.clientStart.push(c.start);
    split.clientAnswered.push(c.answered);
    if (server[i]) split.hookConnect.push(server[i]!.in - c.sent);
  });
  return split;
}

function splitLines(o: { prefix: string; split: Split; overheadP50: number; round: (n: number) => number }): Array<{ name: string; value: number; unit: string } & Record<string, unknown>> {
  const { split, round } = o;
  const sorted = [...split.tether].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  return [
    { name: `${o.prefix}approval_tether_ms_p50`, value: round(p50), unit: 'ms', samples: sorted.length, runner_to_phone_ms_p50: round(median(split.toPhone)), phone_to_answer_out_ms_p50: round(median(split.back)), runner_in_ms_p50: round(median(split.runnerIn)), runner_out_ms_p50: round(median(split.runnerOut)), agent_ms_p50: round(o.overheadP50 - p50) },
    { name: `${o.prefix}approval_tether_ms_p99`, value: round(percentile(sorted, 99)), unit: 'ms', runner_to_phone_ms_p99: round(percentile([...split.toPhone].sort((a, b) => a - b), 99)), phone_to_answer_out_ms_p99: round(percentile([...split.back].sort((a, b) => a - b), 99)) },
  ];
}

/** The overhead of asking (each asked call's gap − the median gap of calls the user allowed) and the
 *  tether's share of it, under an agent's prefix. */
function overheadLines(o: { prefix: string; asked: number[]; allowed: number[]; split: Split; round: (n: number) => number }): Array<{ name: string; value: number; unit: string } & Record<string, unknown>> {
  const { round } = o;
  const allowedMedian = median(o.allowed);
  const overhead = o.asked.map((gap) => gap - allowedMedian).sort((a, b) => a - b);
  return [
    { name: `${o.prefix}approval_overhead_ms_p50`, value: round(percentile(overhead, 50)), unit: 'ms', samples: overhead.length, asked_gap_ms_p50: round(median(o.asked)), allowed_gap_ms_p50: round(allowedMedian) },
    { name: `${o.prefix}approval_overhead_ms_p99`, value: round(percentile(overhead, 99)), unit: 'ms' },
    ...splitLines({ prefix: o.prefix, split: o.split, overheadP50: percentile(overhead, 50), round }),
  ];
}

/** ms from each main request that got turn `i` to the request after it. */
function toolGaps(fake: Pick<FakeAnthropic | FakeOpenAI, 'requests'>): Map<number, number> {
  const main = fake.requests.filter((r) => r.kind === 'main');
  const gaps = new Map<number, number>();
  for (let k = 0; k + 1 < main.length; k++) {
    const turn = main[k]!.turnIndex;
    if (turn !== undefined) gaps.set(turn, main[k + 1]!.receivedAt - main[k]!.receivedAt);
  }
  return gaps;
}

function allowInSettings(sandbox: ClaudeSandbox, rules: string[]): void {
  writeFileSync(join(sandbox.configDir, 'settings.json'), JSON.stringify({ permissions: { allow: rules } }));
}

/** One tether session: CALLS asked and CALLS rule-allowed Bash calls, alternating, then CALLS Reads. */
async function tetherSession(hub: HubHandle): Promise<{ asked: number[]; allowed: number[]; reads: number[]; processes: number; toolCalls: number; split: Split }> {
  const script: ScriptTurn[] = [];
  for (let i = 0; i < CALLS; i++) {
    script.push(toolUse('Bash', { command: `touch ask-${i}.txt`, description: 'asked' }));
    script.push(toolUse('Bash', { command: `touch rule-${i}.txt`, description: 'allowed by a rule' }));
  }
  for (let i = 0; i < CALLS; i++) script.push(toolUse('Read', { file_path: 'notes.txt' }));
  script.push(text('bench done'));
  const fake = await startFakeAnthropic({ script });
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  writeFileSync(join(sandbox.cwd, 'notes.txt'), 'hello\n');
  allowInSettings(sandbox, ['Bash(touch rule-:*)', 'Bash(touch rule-*)']);
  const timings = timingsFile();
  const runner = startRunner({ hub, sandbox, args: ['--permission-mode', 'default'], env: { [BENCH_TIMINGS_ENV]: timings.file } });
  const phone = await watchSession({ hub, sessionId: runner.sessionId });
  const answerer = await answerAtOnce({ hub, sessionId: runner.sessionId, timings });
  try {
    await runner.waitForScreen(/❯/);
    await phone.send('go');
    await runner.waitForScreen('bench done', { timeoutMs: SESSION_TIMEOUT_MS });
    const gaps = toolGaps(fake);
    const pick = (from: number, step: number, count: number) => Array.from({ length: count }, (_, i) => gaps.get(from + i * step)).filter((g): g is number => g !== undefined);
    let processes = 0;
    let toolCalls = 0;
    for (const transcript of sandbox.transcripts()) {
      for (const line of readFileSync(transcript, 'utf8').split('\n')) {
        if (!line.includes('"attachment"')) continue;
        const attachment = (JSON.parse(line) as { attachment?: { type?: string; hookEvent?: string; command?: string } }).attachment;
        if (attachment?.type !== 'hook_success' || !['PreToolUse', 'PostToolUse', 'PermissionRequest'].includes(attachment.hookEvent ?? '')) continue;
        if (attachment.hookEvent === 'PreToolUse') toolCalls += 1;
        if (!attachment.command?.startsWith('http://')) processes += 1;
      }
    }
    answerer.stop();
    return { asked: pick(0, 2, CALLS), allowed: pick(1, 2, CALLS), reads: pick(2 * CALLS, 1, CALLS), processes, toolCalls, split: splitOf(timings) };
  } finally {
    answerer.stop();
    phone.stop();
    await runner.stop();
    await fake.stop();
    sandbox.stop();
  }
}

/** The same CALLS Reads in a plain claude with no tether hooks at all. */
async function plainReads(): Promise<number[]> {
  const script: ScriptTurn[] = Array.from({ length: CALLS }, () => toolUse('Read', { file_path: 'notes.txt' }));
  script.push(text('plain done'));
  const fake = await startFakeAnthropic({ script });
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  writeFileSync(join(sandbox.cwd, 'notes.txt'), 'hello\n');
  const claude = spawnClaudeInPty({ sandbox, args: ['--permission-mode', 'default'], cols: 120, rows: 40 });
  try {
    await claude.waitForScreen(/❯/);
    await claude.submit('go');
    await claude.waitForScreen(/plain done/, { timeoutMs: SESSION_TIMEOUT_MS });
    const gaps = toolGaps(fake);
    return Array.from({ length: CALLS }, (_, i) => gaps.get(i)).filter((g): g is number => g !== undefined);
  } finally {
    await claude.stop();
    await fake.stop();
    sandbox.stop();
  }
}

/** One `tether codex` session: `calls` asked and `calls` rule-allowed escalated commands, alternating. */
export async function codexSession(hub: HubHandle, calls = CALLS): Promise<{ asked: number[]; allowed: number[]; phoneAsked: number; split: Split }> {
  const script: CodexTurn[] = [];
  for (let i = 0; i < calls; i++) {
    script.push(execCommand(`touch ask-${i}.txt`, { justification: 'asked' }));
    script.push(execCommand(`mkdir rule-${i}`, { justification: 'allowed by a rule' }));
  }
  script.push(codexText('bench done'));
  const fake = await startFakeOpenAI({ script });
  const sandbox = createCodexSandbox({ fakeApiUrl: fake.url });
  mkdirSync(join(sandbox.codexHome, 'rules'));
  writeFileSync(join(sandbox.codexHome, 'rules', 'default.rules'), 'prefix_rule(pattern = ["mkdir"], decision = "allow")\n');
  const timings = timingsFile();
  const runner = startRunner({ hub, sandbox, agent: 'codex', cols: 110, rows: 35, env: { [BENCH_TIMINGS_ENV]: timings.file } });
  const phone = await watchSession({ hub, sessionId: runner.sessionId });
  const answerer = await answerAtOnce({ hub, sessionId: runner.sessionId, timings });
  try {
    await runner.waitForScreen(CODEX_READY);
    await phone.send('go');
    await runner.waitForScreen('bench done', { timeoutMs: SESSION_TIMEOUT_MS });
    for (let i = 0; i < calls; i++) {
      if (!existsSync(join(sandbox.cwd, `ask-${i}.txt`)) || !existsSync(join(sandbox.cwd, `rule-${i}`))) throw new Error(`codex did not run call ${i} of both kinds`);
    }
    const gaps = toolGaps(fake);
    const pick = (from: number) => Array.from({ length: calls }, (_, i) => gaps.get(from + i * 2)).filter((g): g is number => g !== undefined);
    const phoneAsked = answerer.stop();
    return { asked: pick(0), allowed: pick(1), phoneAsked, split: splitOf(timings) };
  } finally {
    answerer.stop();
    phone.stop();
    await runner.stop();
    await fake.stop();
    sandbox.stop();
  }
}

/** One `tether gemini` session of `calls` shell commands: asked on the phone, or allowed by the
 *  user's `tools.allowed` (no BeforeTool hook for them at all). */
async function geminiSession(hub: HubHandle, o: { asked: boolean; calls?: number }): Promise<{ gaps: number[]; phoneAsked: number; split: Split | null; received: Map<number, number> }> {
  const calls = o.calls ?? CALLS;
  const kind = o.asked ? 'ask' : 'rule';
  const script: GeminiTurn[] = Array.from({ length: calls }, (_, i) => shellCommand(`touch ${kind}-${i}.txt`, { description: kind }));
  script.push(geminiText('bench done'));
  const fake = await startFakeGemini({ script });
  const sandbox = createGeminiSandbox({ fakeApiUrl: fake.url, ...(o.asked ? {} : { settings: { tools: { allowed: ['run_shell_command'] } } }) });
  const timings = timingsFile();
  const runner = startRunner({ hub, sandbox, agent: 'gemini', cols: 110, rows: 35, args: ['-m', FAKE_GEMINI_MODEL], env: { [BENCH_TIMINGS_ENV]: timings.file } });
  const phone = await watchSession({ hub, sessionId: runner.sessionId });
  const answerer = await answerAtOnce({ hub, sessionId: runner.sessionId, timings });
  try {
    // As tests/harness/gemini-world.ts: typed once its SessionStart hook has named the session and ended.
    await runner.waitForScreen(GEMINI_READY, { timeoutMs: 60_000 });
    await phone.waitFor(() => phone.session()?.agentSessionId, { what: 'SessionStart named the session' });
    await runner.waitForScreen(/^(?![^]*Executing Hook)/);
    await phone.send('go');
    await runner.waitForScreen('bench done', { timeoutMs: SESSION_TIMEOUT_MS });
    for (let i = 0; i < calls; i++) if (!existsSync(join(sandbox.cwd, `${kind}-${i}.txt`))) throw new Error(`gemini did not run call ${i} (${kind})`);
    const gaps = toolGaps(fake);
    const received = new Map(fake.requests.filter((r) => r.kind === 'main' && r.turnIndex !== undefined).map((r) => [r.turnIndex!, r.receivedAt]));
    const phoneAsked = answerer.stop();
    return { gaps: Array.from({ length: calls }, (_, i) => gaps.get(i)).filter((g): g is number => g !== undefined), phoneAsked, split: o.asked ? splitOf(timings) : (readTimings(timings), null), received };
  } finally {
    answerer.stop();
    phone.stop();
    await runner.stop();
    await fake.stop();
    sandbox.stop();
  }
}

function geminiOverhead(asked: Awaited<ReturnType<typeof geminiSession>>, allowed: Awaited<ReturnType<typeof geminiSession>>, round: (n: number) => number): Array<{ name: string; value: number; unit: string } & Record<string, unknown>> {
  if (asked.phoneAsked !== asked.gaps.length || !asked.split) throw new Error(`gemini: the phone was asked ${asked.phoneAsked} times for ${asked.gaps.length} asked calls`);
  if (allowed.phoneAsked !== 0) throw new Error(`gemini: the phone was asked ${allowed.phoneAsked} times about calls the user allowed`);
  const { split } = asked;
  return [
    ...overheadLines({ prefix: 'gemini_', asked: asked.gaps, allowed: allowed.gaps, split, round }),
    { name: 'gemini_hook_process_ms_p50', value: round(median(split.hookProcess)), unit: 'ms', samples: split.hookProcess.length, hook_connect_ms_p50: round(median(split.hookConnect)), ...geminiAround(asked, round) },
  ];
}

/** Where Gemini's own share goes, per asked call (wall clocks of one machine): from the API request
 *  whose reply held the call to the hook process's start (Gemini parsing, scheduling, spawning its
 *  hook through a shell), and from the hook's answer to Gemini's next API request (the hook process
 *  ending, Gemini running the tool, its AfterTool hook process, the next request). */
function geminiAround(asked: Awaited<ReturnType<typeof geminiSession>>, round: (n: number) => number): Record<string, number> {
  const split = asked.split!;
  const before: number[] = [];
  const after: number[] = [];
  split.clientStart.forEach((start, i) => {
    const got = asked.received.get(i);
    const next = asked.received.get(i + 1);
    if (got !== undefined) before.push(start - got);
    if (next !== undefined) after.push(next - split.clientAnswered[i]!);
  });
  return { request_to_hook_start_ms_p50: round(median(before)), hook_answer_to_next_request_ms_p50: round(median(after)) };
}

function codexOverhead(codex: Awaited<ReturnType<typeof codexSession>>, round: (n: number) => number): Array<{ name: string; value: number; unit: string } & Record<string, unknown>> {
  if (codex.phoneAsked !== codex.asked.length) throw new Error(`codex: the phone was asked ${codex.phoneAsked} times for ${codex.asked.length} asked calls`);
  const { split } = codex;
  return [
    ...overheadLines({ prefix: 'codex_', asked: codex.asked, allowed: codex.allowed, split, round }),
    // `tether hook permission-request`: Bun up → request sent (its own start-up), and sent → at the runner.
    { name: 'codex_hook_process_ms_p50', value: round(median(split.hookProcess)), unit: 'ms', samples: split.hookProcess.length, hook_connect_ms_p50: round(median(split.hookConnect)) },
  ];
}

export async function run(): Promise<Array<{ name: string; value: number; unit: string } & Record<string, unknown>>> {
  const agents = new Set((process.env.TETHER_BENCH_APPROVALS ?? 'claude,codex,gemini').split(','));
  const hub = await benchHub();
  const round = (n: number) => Math.round(n * 100) / 100;
  try {
    const out: Array<{ name: string; value: number; unit: string } & Record<string, unknown>> = [];
    if (agents.has('claude') || agents.has('codex')) out.push(...(await claudeAndCodex(hub, { claude: agents.has('claude'), codex: agents.has('codex'), round })));
    if (agents.has('gemini')) {
      const asked = await geminiSession(hub, { asked: true });
      const allowed = await geminiSession(hub, { asked: false });
      out.push(...geminiOverhead(asked, allowed, round));
    }
    return out;
  } finally {
    await hub.stop();
  }
}

/** The hub as a user runs it: `tether hub`, a process of its own (no FTL, as start-env.ts sets). */
async function benchHub(): Promise<HubHandle & { stop(): Promise<void> }> {
  const home = makeTempHome('tether-bench-approvals-');
  const hub = await startHubProcess({ home });
  return { url: hub.url, token: hub.token!, stop: async () => { await hub.stop(); rmSync(home, { recursive: true, force: true }); } };
}

async function claudeAndCodex(hub: HubHandle, o: { claude: boolean; codex: boolean; round: (n: number) => number }): Promise<Array<{ name: string; value: number; unit: string } & Record<string, unknown>>> {
  const { round } = o;
  if (!o.claude) return codexOverhead(await codexSession(hub), round);
  // Alternate the two kinds of session so the box's load drifts over both alike.
  const plainFirst = await plainReads();
  const session = await tetherSession(hub);
  const codex = o.codex ? await codexSession(hub) : null;
  const plainAfter = await plainReads();
  const plain = median([...plainFirst, ...plainAfter]);
  return [
    ...overheadLines({ prefix: '', asked: session.asked, allowed: session.allowed, split: session.split, round }),
    { name: 'readonly_allow_ms_p50', value: round(median(session.reads) - plain), unit: 'ms', tether_read_gap_ms_p50: round(median(session.reads)), plain_read_gap_ms_p50: round(plain) },
    ...(codex ? codexOverhead(codex, round) : []),
    { name: 'hook_processes_per_tool_call', value: session.toolCalls ? round(session.processes / session.toolCalls) : -1, unit: 'processes', tool_calls: session.toolCalls, processes: session.processes },
  ];
}
