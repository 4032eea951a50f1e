// launch.ts: the argv Codex gets. Every user argument passes through untouched, after tether's own:
// `--no-daemon` (this TUI runs its own engine, so its hooks and its transcript are this session's)
// and `-c` overrides that register tether's hooks and trust exactly them.
//
// Codex runs command hooks only, and asks a person to review new ones ("Hooks need review") unless
// `hooks.state` holds their hash. tether never passes --dangerously-bypass-hook-trust (that trusts
// the user's own hooks too) and never writes the user's config.toml: its hooks and their trust live in
// Codex's session-flags layer (`-c`), keyed `/<session-flags>/config.toml:<event>:<group>:<handler>`
// and hashed as Codex does: sha256 over the compact, key-sorted JSON of the hook's identity
// ({event_name, hooks: [{async, command, timeout, type}]}). Checked against 0.160.0 and 0.169.0:
// with the hash no review is asked and the hook runs; the user's own trusted hooks still run (the
// layers merge). A dotted `-c hooks.state."<key>".trusted_hash=…` is not read by either version;
// the inline table is.
import { createHash } from 'node:crypto';
import { LaunchArgsError, type LaunchPlan } from '../agent.ts';
import type { HookEventArg } from '../../hooks/events.ts';

/** Subcommands that are no TUI (or not one tether can mirror). */
const NOT_INTERACTIVE = new Set(['exec', 'e', 'review', 'login', 'logout', 'mcp', 'mcp-server', 'app-server', 'completion', 'sandbox', 'debug', 'apply', 'a', 'cloud', 'features', 'help', 'generate-ts', 'responses-api-proxy', 'stdio-to-uds']);
/** Flags that turn Codex's hooks off or skip the person entirely. */
const REFUSED_FLAGS = new Set(['--dangerously-bypass-hook-trust']);
/** Flags that take a value (so the value is not mistaken for a subcommand or prompt). */
const VALUE_FLAGS = new Set(['-c', '--config', '-m', '--model', '-p', '--profile', '-s', '--sandbox', '-a', '--ask-for-approval', '-C', '--cd', '-i', '--image', '--add-dir', '--enable', '--disable', '--local-provider', '--remote', '--remote-auth-token-env']);

/** Codex's name for each hook tether registers, and its snake_case key in `hooks.state`. */
const CODEX_HOOKS: Array<{ event: HookEventArg; name: string; key: string }> = [
  { event: 'session-start', name: 'SessionStart', key: 'session_start' },
  { event: 'user-prompt-submit', name: 'UserPromptSubmit', key: 'user_prompt_submit' },
  { event: 'pre-tool-use', name: 'PreToolUse', key: 'pre_tool_use' },
  { event: 'permission-request', name: 'PermissionRequest', key: 'permission_request' },
  { event: 'post-tool-use', name: 'PostToolUse', key: 'post_tool_use' },
  { event: 'stop', name: 'Stop', key: 'stop' },
];
/** A permission waits for a person (a day bounds their thinking time); facts are answered at once. */
const PERSON_TIMEOUT_S = 86_400;
const FACT_TIMEOUT_S = 30;
const SESSION_FLAGS_SOURCE = '/<session-flags>/config.toml';

export function planCodexLaunch(userArgs: readonly string[]): LaunchPlan {
  let permissionMode: LaunchPlan['permissionMode'] = 'default';
  let bypass = false;
  let model: string | null = null;
  let resumeId: string | null = null;
  let continueLast = false;
  const addedDirs: string[] = [];
  let positional = 0;
  for (let i = 0; i < userArgs.length; i++) {
    const arg = userArgs[i]!;
    if (arg === '--') break;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (REFUSED_FLAGS.has(name)) throw new LaunchArgsError(`${name} trusts every hook unreviewed, the user's own included; tether trusts only its own. Run codex directly for that`);
    if (arg === '--dangerously-bypass-approvals-and-sandbox' || arg === '--yolo') {
      bypass = true;
      permissionMode = 'bypassPermissions';
      continue;
    }
    if (VALUE_FLAGS.has(name)) {
      const value = arg.includes('=') ? arg.slice(name.length + 1) : userArgs[++i];
      if ((name === '-m' || name === '--model') && value) model = value;
      // `--add-dir <DIR>` takes one folder; it is given once per folder.
      if (name === '--add-dir' && value) addedDirs.push(value);
      continue;
    }
    if (arg.startsWith('-')) continue;
    // The first positional is a subcommand or the first prompt.
    if (positional === 0 && NOT_INTERACTIVE.has(arg)) throw new LaunchArgsError(`codex ${arg} is not the interactive TUI that tether mirrors; run it directly`);
    if (positional === 0 && arg === 'resume') {
      const next = userArgs[i + 1];
      if (next === '--last') continueLast = true;
      else if (next && !next.startsWith('-')) resumeId = next;
    }
    positional += 1;
  }
  return { args: userArgs.filter((a) => a !== '--'), permissionMode, bypass, resumeId, model, continue: continueLast, addedDirs };
}

/** `sha256:<hex>` of a command hook's identity, as Codex computes it for `hooks.state`. */
export function codexHookHash(o: { key: string; command: string; timeout: number }): string {
  // Written out with its keys in sorted order, compact: the form Codex hashes.
  const identity = `{"event_name":${JSON.stringify(o.key)},"hooks":[{"async":false,"command":${JSON.stringify(o.command)},"timeout":${o.timeout},"type":"command"}]}`;
  return `sha256:${createHash('sha256').update(identity).digest('hex')}`;
}

const tomlString = (value: string) => JSON.stringify(value);

/** The `-c` overrides registering one command hook per event (`commandFor`) and trusting them. */
export function codexHookArgs(o: { commandFor: (event: HookEventArg) => string; permissionHook: boolean }): string[] {
  const args: string[] = [];
  const trusted: string[] = [];
  for (const hook of CODEX_HOOKS) {
    if (hook.event === 'permission-request' && !o.permissionHook) continue;
    const command = o.commandFor(hook.event);
    const timeout = hook.event === 'permission-request' ? PERSON_TIMEOUT_S : FACT_TIMEOUT_S;
    args.push('-c', `hooks.${hook.name}=[{hooks=[{type="command",command=${tomlString(command)},timeout=${timeout}}]}]`);
    trusted.push(`${tomlString(`${SESSION_FLAGS_SOURCE}:${hook.key}:0:0`)}={trusted_hash=${tomlString(codexHookHash({ key: hook.key, command, timeout }))}}`);
  }
  args.push('-c', `hooks.state={${trusted.join(',')}}`);
  return args;
}
