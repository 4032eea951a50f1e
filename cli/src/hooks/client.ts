// client.ts: the body of `tether hook <event>`, the short-lived process an agent runs for a hook it
// calls as a command (claude: only SessionStart, every other event is an HTTP hook; Codex: every
// event, it has command hooks only). It reads the agent's JSON from stdin, posts it to the runner's
// loopback hook server and prints the answer. It imports only events.ts and bench-timings.ts (node:fs), so it starts fast.
//
// Invariant: a fact hook never blocks the agent. On any failure (no endpoint file, runner
// unreachable, runner wedged) it prints nothing and exits 0, so the agent carries on; for a
// permission that means the agent's own dialog decides, at the desk: it never decides a permission.
import { readFileSync } from 'node:fs';
import { recordHookTiming, wallNow } from './bench-timings.ts';
import { HOOK_FILE_ENV, HOOK_SECRET_HEADER, HOOK_UNANSWERED_ENV, type HookEndpoint, type HookEventArg } from './events.ts';

/** The runner answers facts at once; 5 s means it is wedged. */
const FACT_TIMEOUT_MS = 5_000;
/** A permission or an MCP form waits for a person: a day only bounds their thinking time (the
 *  agent's own hook timeout says the same). */
const PERSON_TIMEOUT_MS = 86_400_000;
const WAITS_FOR_PERSON: ReadonlySet<HookEventArg> = new Set(['permission-request', 'elicitation']);

export type HookClientResult = { stdout: string; exitCode: number; problem: string | null };

function readEndpoint(env: NodeJS.ProcessEnv): HookEndpoint {
  const file = env[HOOK_FILE_ENV];
  if (!file) throw new Error(`${HOOK_FILE_ENV} is not set (tether hook is run by claude under tether claude)`);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<HookEndpoint>;
  if (typeof parsed.port !== 'number' || typeof parsed.secret !== 'string') throw new Error('hook endpoint file is malformed');
  return { port: parsed.port, secret: parsed.secret };
}

export async function runHookClient(options: { event: HookEventArg; stdin: string; env?: NodeJS.ProcessEnv }): Promise<HookClientResult> {
  // Silence lets claude's and Codex's own dialog decide; an agent whose silence would allow names what
  // to print instead (HOOK_UNANSWERED_ENV), so a failure here never allows a call.
  const quiet = (problem: string): HookClientResult => ({ stdout: (options.env ?? process.env)[HOOK_UNANSWERED_ENV] ?? '', exitCode: 0, problem });
  let endpoint: HookEndpoint;
  let body: unknown;
  try {
    endpoint = readEndpoint(options.env ?? process.env);
    body = JSON.parse(options.stdin || '{}');
  } catch (error) {
    return quiet(`hook could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const sent = wallNow();
    const response = await fetch(`http://127.0.0.1:${endpoint.port}/hook/${options.event}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [HOOK_SECRET_HEADER]: endpoint.secret },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(WAITS_FOR_PERSON.has(options.event) ? PERSON_TIMEOUT_MS : FACT_TIMEOUT_MS),
      // Bun ends a request idle for 5 minutes (BUN_CONFIG_HTTP_IDLE_TIMEOUT); a person may take longer.
      timeout: false,
    });
    const answer: unknown = await response.json().catch(() => null);
    recordHookTiming({ role: 'client', event: options.event, start: performance.timeOrigin, sent, answered: wallNow() }, options.env ?? process.env);
    if (!response.ok) return quiet(`runner answered HTTP ${response.status}`);
    const printable = answer && typeof answer === 'object' && Object.keys(answer).length > 0;
    return { stdout: printable ? JSON.stringify(answer) : '', exitCode: 0, problem: null };
  } catch (error) {
    return quiet(`the tether runner is not reachable (${error instanceof Error ? error.message : String(error)})`);
  }
}
