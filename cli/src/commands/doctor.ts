// doctor.ts: `tether doctor`: is everything a session needs in place? One line per check, ok or
// fail with the fix: claude found (and its version), Codex and Gemini CLI likewise (optional), Bun, hub reachable,
// token valid, hook round trip.
import { PROTOCOL_VERSION } from '@tether/shared';
import { loadCredentials } from '../config/credentials.ts';
import { versionLine } from '../config/build.ts';
import pkg from '../../package.json' with { type: 'json' };
import type { AgentVersions } from '../agents/version.ts';
import { parseFlags, type Command } from './command.ts';

/** A check slower than this failed (a hung `claude --version`, a hub that never answers). */
const CHECK_TIMEOUT_MS = 10_000;

type Check = { name: string; ok: boolean; detail: string; fix?: string };

type AgentToCheck = {
  name: string;
  find: () => string;
  pinVariable: string;
  install: string;
  optional?: boolean;
  versions: AgentVersions;
  /** How long its --version may take (CHECK_TIMEOUT_MS). */
  timeoutMs?: number;
};

/** One agent: found (its pin variable or PATH), and its version against the range tether is tested
 *  with. Outside the range is a warning with its fix, not a failure: the agent usually works. An
 *  optional agent that is not installed is no failure either, only said; a pin variable that points
 *  at nothing is (the user asked for that binary). */
export async function checkAgent(agent: AgentToCheck): Promise<Check> {
  const { AgentNotFoundError } = await import('../agents/find-binary.ts');
  const { parseVersion } = await import('../agents/version.ts');
  const { name } = agent;
  let bin: string;
  try {
    bin = agent.find();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (agent.optional && error instanceof AgentNotFoundError && !process.env[agent.pinVariable]) {
      return { name, ok: true, detail: `not installed (optional): ${agent.install}` };
    }
    return { name, ok: false, detail: 'not found', fix: message };
  }
  try {
    const proc = Bun.spawn([bin, '--version'], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...agent.versions.versionEnv } });
    const timeoutMs = agent.timeoutMs ?? CHECK_TIMEOUT_MS;
    // Not waited for past the limit: a launcher's child (npm's opencode starts a native binary) can
    // hold its output open after the launcher is killed.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const printed = await Promise.race([
      new Response(proc.stdout).text(),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs))),
    ]);
    clearTimeout(timer);
    // Slow is not broken: a loaded machine took over 10 s to start opencode's native binary.
    if (printed === null) {
      proc.kill();
      return { name, ok: true, detail: `${bin} did not print its version within ${timeoutMs / 1000} s (a busy machine?); its version is unchecked`, fix: 'run tether doctor again when the machine is less busy' };
    }
    const out = printed.trim();
    const exited = await proc.exited;
    if (exited !== 0) return { name, ok: false, detail: `${bin} --version failed`, fix: `reinstall ${name}` };
    const version = parseVersion(out);
    const { floor, current } = agent.versions.range;
    const range = `tested ${floor}–${current}`;
    if (agent.versions.standing(version) === 'inside') return { name, ok: true, detail: `${version} (${bin}), inside the ${range} range` };
    const warning = agent.versions.warning(version);
    return { name, ok: true, detail: `${out} (${bin}), outside the ${range} range`, ...(warning ? { fix: warning } : {}) };
  } catch (error) {
    return { name, ok: false, detail: `${bin} does not run: ${String(error)}`, fix: `reinstall ${name} or fix ${agent.pinVariable}` };
  }
}

/** claude, then Codex, Gemini CLI and opencode: optional, as claude is tether's main agent and a machine
 *  without the others is fine. */
async function checkAgents(): Promise<Check[]> {
  const [{ findClaudeBinary }, { claudeVersions }, { codexAgent }, { codexVersions }, { geminiAgent }, { geminiVersions }, { opencodeAgent }, { opencodeVersions }] = await Promise.all([
    import('../agents/claude/find-binary.ts'),
    import('../agents/claude/version.ts'),
    import('../agents/codex/agent.ts'),
    import('../agents/codex/version.ts'),
    import('../agents/gemini/agent.ts'),
    import('../agents/gemini/version.ts'),
    import('../agents/opencode/agent.ts'),
    import('../agents/opencode/version.ts'),
  ]);
  const agents: AgentToCheck[] = [
    { name: 'claude', find: () => findClaudeBinary(), pinVariable: 'TETHER_CLAUDE_BIN', install: 'npm install -g @anthropic-ai/claude-code', versions: claudeVersions },
    { name: 'codex', find: () => codexAgent.findBinary({ env: process.env }), pinVariable: 'TETHER_CODEX_BIN', install: 'npm install -g @openai/codex', optional: true, versions: codexVersions },
    { name: 'gemini', find: () => geminiAgent.findBinary({ env: process.env }), pinVariable: 'TETHER_GEMINI_BIN', install: 'npm install -g @google/gemini-cli', optional: true, versions: geminiVersions },
    { name: 'opencode', find: () => opencodeAgent.findBinary({ env: process.env }), pinVariable: 'TETHER_OPENCODE_BIN', install: 'npm install -g opencode-ai', optional: true, versions: opencodeVersions },
  ];
  const checks: Check[] = [];
  // One at a time: each runs the agent's --version, and the machine may be busy.
  for (const agent of agents) checks.push(await checkAgent(agent));
  return checks;
}

async function checkHub(): Promise<Check[]> {
  const creds = loadCredentials();
  if (!creds) {
    return [{ name: 'hub', ok: false, detail: 'no hub configured', fix: 'run tether auth login --hub URL --token T (or set TETHER_HUB_URL and TETHER_TOKEN)' }];
  }
  const checks: Check[] = [];
  try {
    const res = await fetch(`${creds.hubUrl}/healthz`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    // 421: the hub answers only the names it serves (its Host allowlist, DNS rebinding).
    if (res.status === 421) {
      const name = new URL(creds.hubUrl).hostname;
      return [{ name: 'hub', ok: false, detail: `${creds.hubUrl} refuses the name ${name} (421 Misdirected Request)`, fix: `start the hub with --allowed-host ${name}, or use a URL it serves` }];
    }
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

/** Starts a hook server with the settings claude would get, then does what claude does: runs the
 *  SessionStart command hook (the one process) and POSTs to the PermissionRequest HTTP hook. */
async function checkHookRoundTrip(): Promise<Check> {
  const { startHookServer } = await import('../hooks/server.ts');
  const { writeHookSettings } = await import('../agents/claude/hook-settings.ts');
  const { tetherCommand } = await import('../config/self-command.ts');
  const seen: string[] = [];
  const server = startHookServer({
    onHook: async (request) => {
      seen.push(request.event);
      return request.event === 'permission-request' ? { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } } : {};
    },
  });
  const settings = writeHookSettings({ endpoint: server.endpoint });
  type Entry = { command?: string; url?: string; headers?: Record<string, string> };
  try {
    const json = JSON.parse(await Bun.file(settings.settingsPath).text()) as { hooks: Record<string, Array<{ hooks: Entry[] }>> };
    const started = performance.now();
    const command = json.hooks.SessionStart![0]!.hooks[0]!.command!;
    const proc = Bun.spawn(['/bin/sh', '-c', command], { stdin: new TextEncoder().encode(JSON.stringify({ session_id: 'doctor' })), stdout: 'pipe', stderr: 'pipe' });
    const timer = setTimeout(() => proc.kill(), CHECK_TIMEOUT_MS);
    const stderr = await new Response(proc.stderr).text();
    await proc.exited;
    clearTimeout(timer);
    const commandMs = Math.round(performance.now() - started);
    const http = json.hooks.PermissionRequest![0]!.hooks[0]!;
    const httpStarted = performance.now();
    const res = await fetch(http.url!, { method: 'POST', headers: { 'content-type': 'application/json', ...http.headers }, body: JSON.stringify({ tool_name: 'Bash', tool_input: {} }), signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    const answer = (await res.json().catch(() => ({}))) as { hookSpecificOutput?: { decision?: { behavior?: string } } };
    const httpMs = Math.round(performance.now() - httpStarted);
    if (!seen.includes('session-start')) {
      return { name: 'hooks', ok: false, detail: `the SessionStart command hook did not reach tether: ${stderr.trim() || '(no output)'}`, fix: 'run tether hook session-start by hand to see the error' };
    }
    return answer.hookSpecificOutput?.decision?.behavior === 'allow'
      ? { name: 'hooks', ok: true, detail: `SessionStart command hook ${commandMs} ms; HTTP hooks ${httpMs} ms, no process` }
      : { name: 'hooks', ok: false, detail: `unexpected HTTP hook answer (HTTP ${res.status})`, fix: 'check that nothing blocks 127.0.0.1' };
  } catch (error) {
    return { name: 'hooks', ok: false, detail: String(error), fix: `check that ${tetherCommand().join(' ')} hook session-start runs` };
  } finally {
    settings.remove();
    server.stop();
  }
}

/** A hub on this home serving through a relay (tether hub --relay): is its tunnel up? */
async function checkRelay(): Promise<Check[]> {
  const { relayCheck } = await import('../relay-link/status.ts');
  const { tetherHome } = await import('../config/paths.ts');
  const found = relayCheck(tetherHome());
  return found ? [{ name: 'relay', ...found }] : [];
}

const command: Command = {
  name: 'doctor',
  summary: 'check claude, codex and gemini, versions, hub reachability, token, the relay tunnel (if any) and the hook round trip',
  usage: 'tether doctor [--json]',
  async run(args) {
    const { flags } = parseFlags({ args, booleans: ['json'] });
    const checks: Check[] = [
      { name: 'tether', ok: true, detail: versionLine(pkg.version) },
      ...(await checkAgents()),
      { name: 'bun', ok: true, detail: `Bun ${Bun.version} (${process.execPath})` },
      ...(await checkHub()),
      ...(await checkRelay()),
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
