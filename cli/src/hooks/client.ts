// client.ts: the body of `tether hook <event>`, the short-lived process claude runs for each hook.
// It reads claude's JSON from stdin, posts it to the runner's loopback hook server and prints the
// answer. It imports nothing but events.ts, so it starts fast (it runs on every tool call).
//
// Invariant (fail closed): for PreToolUse the process ALWAYS prints a decision. Any failure (no
// endpoint file, runner unreachable, bad answer, runner gone mid-wait) prints a deny with the
// reason; it never allows by accident and never hangs. SIGTERM/SIGINT/SIGHUP while waiting (claude
// kills the hook when the user presses Esc) cancels the request at the runner, then denies.
// Other events are facts: on failure they print nothing and exit 0, so claude carries on.
import { readFileSync } from 'node:fs';
import { HOOK_EVENTS, HOOK_FILE_ENV, HOOK_REQUEST_ID_HEADER, HOOK_SECRET_HEADER, type HookEndpoint, type HookEventArg } from './events.ts';

/** A fact hook (SessionStart, Stop, …) posts and returns; 5 s means the runner is wedged. */
const FACT_TIMEOUT_MS = 5_000;
/** Cancel is best effort while the process is being torn down. */
const CANCEL_TIMEOUT_MS = 500;

export type HookClientResult = { stdout: string; exitCode: number };

export function denyDecision(reason: string): Record<string, unknown> {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `tether: ${reason}`,
    },
  };
}

function readEndpoint(env: NodeJS.ProcessEnv): HookEndpoint {
  const file = env[HOOK_FILE_ENV];
  if (!file) throw new Error(`${HOOK_FILE_ENV} is not set (tether hook is run by claude under tether claude)`);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<HookEndpoint>;
  if (typeof parsed.port !== 'number' || typeof parsed.secret !== 'string') throw new Error('hook endpoint file is malformed');
  return { port: parsed.port, secret: parsed.secret };
}

function isDecision(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length === 0) return true; // {}: claude's own permission flow
  const out = (value as { hookSpecificOutput?: { permissionDecision?: unknown } }).hookSpecificOutput;
  return !!out && ['allow', 'deny', 'ask'].includes(String(out.permissionDecision));
}

export async function runHookClient(options: {
  event: HookEventArg;
  stdin: string;
  env?: NodeJS.ProcessEnv;
  /** Aborted when the process is told to stop (SIGTERM, …). */
  signal?: AbortSignal;
}): Promise<HookClientResult> {
  const env = options.env ?? process.env;
  const gate = options.event === 'pre-tool-use';
  const fail = (reason: string): HookClientResult =>
    gate ? { stdout: JSON.stringify(denyDecision(reason)), exitCode: 0 } : { stdout: '', exitCode: 0 };

  let endpoint: HookEndpoint;
  let body: unknown;
  try {
    endpoint = readEndpoint(env);
    body = JSON.parse(options.stdin || '{}');
  } catch (error) {
    return fail(`hook could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  const requestId = crypto.randomUUID();
  const base = `http://127.0.0.1:${endpoint.port}`;
  const headers = { 'content-type': 'application/json', [HOOK_SECRET_HEADER]: endpoint.secret, [HOOK_REQUEST_ID_HEADER]: requestId };
  const controller = new AbortController();
  const timer = gate ? null : setTimeout(() => controller.abort(), FACT_TIMEOUT_MS);
  const onStop = () => controller.abort();
  options.signal?.addEventListener('abort', onStop);
  try {
    const response = await fetch(`${base}/hook/${options.event}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const answer: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const why = answer && typeof answer === 'object' && 'error' in answer ? String((answer as { error: unknown }).error) : `HTTP ${response.status}`;
      return fail(`runner refused the ${HOOK_EVENTS[options.event]} hook: ${why}`);
    }
    if (!gate) return { stdout: answer && typeof answer === 'object' && Object.keys(answer).length > 0 ? JSON.stringify(answer) : '', exitCode: 0 };
    if (!isDecision(answer)) return fail('runner sent a malformed decision');
    return { stdout: JSON.stringify(answer), exitCode: 0 };
  } catch (error) {
    if (options.signal?.aborted) {
      await fetch(`${base}/cancel/${requestId}`, { method: 'POST', headers, signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) }).catch(() => {});
      return fail('the request was cancelled before anyone answered');
    }
    if (controller.signal.aborted) return fail('the runner did not answer in time');
    return fail(`the tether runner is not reachable (${error instanceof Error ? error.message : String(error)}); denied to be safe`);
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', onStop);
  }
}
