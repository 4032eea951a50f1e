// doctor.ts: `tether doctor`: is everything a session needs in place? One line per check, ok or
// fail with the fix: claude found (and its version), Bun, hub reachable, token valid, hook round trip.
import { PROTOCOL_VERSION } from '@tether/shared';
import { loadCredentials } from '../config/credentials.ts';
import { parseFlags, type Command } from './command.ts';

/** A check slower than this failed (a hung `claude --version`, a hub that never answers). */
const CHECK_TIMEOUT_MS = 10_000;

type Check = { name: string; ok: boolean; detail: string; fix?: string };

async function checkClaude(): Promise<Check> {
  const { findClaudeBinary } = await import('../claude/find-binary.ts');
  let bin: string;
  try {
    bin = findClaudeBinary();
  } catch (error) {
    return { name: 'claude', ok: false, detail: 'not found', fix: error instanceof Error ? error.message : String(error) };
  }
  try {
    const proc = Bun.spawn([bin, '--version'], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, CLAUDECODE: '' } });
    const timer = setTimeout(() => proc.kill(), CHECK_TIMEOUT_MS);
    const out = (await new Response(proc.stdout).text()).trim();
    clearTimeout(timer);
    if ((await proc.exited) !== 0) return { name: 'claude', ok: false, detail: `${bin} --version failed`, fix: 'reinstall claude' };
    return { name: 'claude', ok: true, detail: `${out} (${bin})` };
  } catch (error) {
    return { name: 'claude', ok: false, detail: `${bin} does not run: ${String(error)}`, fix: 'reinstall claude or fix TETHER_CLAUDE_BIN' };
  }
}

async function checkHub(): Promise<Check[]> {
  const creds = loadCredentials();
  if (!creds) {
    return [{ name: 'hub', ok: false, detail: 'no hub configured', fix: 'run tether auth login --hub URL --token T (or set TETHER_HUB_URL and TETHER_TOKEN)' }];
  }
  const checks: Check[] = [];
  try {
    const res = await fetch(`${creds.hubUrl}/healthz`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    const body = (await res.json().catch(() => ({}))) as { version?: string; protocol?: number };
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const sameProtocol = body.protocol === undefined || body.protocol === PROTOCOL_VERSION.major;
    checks.push({
      name: 'hub',
      ok: sameProtocol,
      detail: `${creds.hubUrl} reachable (hub ${body.version ?? '?'}, protocol v${body.protocol ?? '?'})`,
      ...(sameProtocol ? {} : { fix: `this tether speaks protocol v${PROTOCOL_VERSION.major}: update the older side` }),
    });
  } catch (error) {
    return [{ name: 'hub', ok: false, detail: `${creds.hubUrl} unreachable (${error instanceof Error ? error.message : String(error)})`, fix: 'start the hub (tether hub) or fix the URL with tether auth login' }];
  }
  try {
    const res = await fetch(`${creds.hubUrl}/api/sessions`, { headers: { authorization: `Bearer ${creds.token}` }, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    checks.push(
      res.ok
        ? { name: 'token', ok: true, detail: 'accepted by the hub' }
        : { name: 'token', ok: false, detail: `refused (HTTP ${res.status})`, fix: 'create a token on the hub machine (tether token create) and run tether auth login' },
    );
  } catch (error) {
    checks.push({ name: 'token', ok: false, detail: `could not check: ${String(error)}`, fix: 'retry when the hub is reachable' });
  }
  return checks;
}

/** Starts a hook server, runs the exact command claude would run, and checks the decision. */
async function checkHookRoundTrip(): Promise<Check> {
  const { startHookServer } = await import('../hooks/server.ts');
  const { writeHookSettings } = await import('../hooks/settings.ts');
  const server = startHookServer({
    onHook: async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'doctor' } }),
  });
  const settings = writeHookSettings({ endpoint: server.endpoint });
  try {
    const json = JSON.parse(await Bun.file(settings.settingsPath).text()) as { hooks: { PreToolUse: Array<{ hooks: Array<{ command: string }> }> } };
    const command = json.hooks.PreToolUse[0]!.hooks[0]!.command;
    const started = performance.now();
    const proc = Bun.spawn(['/bin/sh', '-c', command], { stdin: new TextEncoder().encode(JSON.stringify({ tool_name: 'Read', tool_input: {} })), stdout: 'pipe', stderr: 'pipe' });
    const timer = setTimeout(() => proc.kill(), CHECK_TIMEOUT_MS);
    const out = await new Response(proc.stdout).text();
    clearTimeout(timer);
    const ms = Math.round(performance.now() - started);
    const decision = (JSON.parse(out || '{}') as { hookSpecificOutput?: { permissionDecision?: string } }).hookSpecificOutput?.permissionDecision;
    return decision === 'allow'
      ? { name: 'hooks', ok: true, detail: `tether hook round trip ${ms} ms` }
      : { name: 'hooks', ok: false, detail: `unexpected hook output: ${out.trim() || '(none)'}`, fix: 'run tether hook pre-tool-use by hand to see the error' };
  } catch (error) {
    return { name: 'hooks', ok: false, detail: String(error), fix: 'check that bun can run cli/src/main.ts' };
  } finally {
    settings.remove();
    server.stop();
  }
}

const command: Command = {
  name: 'doctor',
  summary: 'check claude, versions, hub reachability, token and the hook round trip',
  usage: 'tether doctor [--json]',
  async run(args) {
    const { flags } = parseFlags({ args, booleans: ['json'] });
    const checks: Check[] = [
      await checkClaude(),
      { name: 'bun', ok: true, detail: `Bun ${Bun.version}` },
      ...(await checkHub()),
      await checkHookRoundTrip(),
    ];
    if (flags.json) {
      console.log(JSON.stringify({ ok: checks.every((c) => c.ok), checks }));
    } else {
      for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name.padEnd(6)} ${c.detail}${c.fix ? `\n       fix: ${c.fix}` : ''}`);
    }
    return checks.every((c) => c.ok) ? 0 : 1;
  },
};
export default command;
