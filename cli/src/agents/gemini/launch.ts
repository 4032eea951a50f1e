// launch.ts: the argv Gemini CLI gets, and the hooks tether registers for it.
//
// Approvals (docs/decisions/agents.md, "Gemini's approvals"): a BeforeTool hook's `allow` does not
// skip Gemini's own dialog in its default mode, so tether runs it with `--approval-mode yolo` and its
// BeforeTool hook is the gate (gate.ts), whose policy is the session's mode. The user's own
// approval-mode flags are taken out of their arguments and read into the plan: the mode it starts in.
import { LaunchArgsError, type LaunchPlan } from '../agent.ts';
import type { PermissionMode } from '@tether/shared';

/** Flags that take a value (so the value is not mistaken for a prompt). */
const VALUE_FLAGS = new Set(['-m', '--model', '-i', '--prompt-interactive', '-w', '--worktree', '--approval-mode', '--policy', '--admin-policy', '--allowed-mcp-server-names', '--allowed-tools', '-e', '--extensions', '-r', '--resume', '--session-file', '--session-id', '--delete-session', '--include-directories', '-o', '--output-format']);
/** Flags and subcommands that are no TUI tether can mirror. */
const NOT_INTERACTIVE_FLAGS = new Set(['-p', '--prompt', '--acp', '--experimental-acp', '-l', '--list-extensions', '--list-sessions', '--delete-session', '-v', '--version', '-h', '--help', '-o', '--output-format']);
const SUBCOMMANDS = new Set(['mcp', 'extensions', 'extension', 'skills', 'skill', 'hooks', 'hook', 'gemma']);

/** Gemini's approval modes and the permission mode each is on the wire. */
const MODES: Record<string, PermissionMode> = { default: 'default', auto_edit: 'acceptEdits', yolo: 'bypassPermissions', plan: 'plan' };


export function planGeminiLaunch(userArgs: readonly string[]): LaunchPlan {
  let permissionMode: PermissionMode = 'default';
  let model: string | null = null;
  let resumeId: string | null = null;
  let continueLast = false;
  const addedDirs: string[] = [];
  const args: string[] = [];
  for (let i = 0; i < userArgs.length; i++) {
    const arg = userArgs[i]!;
    if (arg === '--') {
      args.push(...userArgs.slice(i + 1));
      break;
    }
    const name = arg.startsWith('--') && arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (NOT_INTERACTIVE_FLAGS.has(name)) throw new LaunchArgsError(`gemini ${name} is not the interactive TUI that tether mirrors; run it directly`);
    if (name === '-y' || name === '--yolo') {
      permissionMode = 'bypassPermissions';
      continue;
    }
    if (VALUE_FLAGS.has(name)) {
      const value = arg.includes('=') && name.startsWith('--') ? arg.slice(name.length + 1) : userArgs[++i];
      if (value === undefined) throw new LaunchArgsError(`gemini ${name} needs a value`);
      if (name === '--approval-mode') {
        const mode = MODES[value];
        if (!mode) throw new LaunchArgsError(`gemini --approval-mode ${value}: tether knows default, auto_edit, yolo and plan`);
        // plan: headless, Gemini enforces it (ACP); in a PTY, tether's gate does (gate.ts).
        permissionMode = mode;
        continue; // tether passes its own (--approval-mode yolo) with its hooks
      }
      if (name === '-m' || name === '--model') model = value;
      // One value a flag (yargs nargs 1), comma-separated and trimmed as Gemini splits it.
      if (name === '--include-directories') addedDirs.push(...value.split(',').map((d) => d.trim()).filter((d) => d !== ''));
      if (name === '-r' || name === '--resume') {
        if (value === 'latest') continueLast = true;
        else resumeId = value;
      }
      args.push(name, value);
      continue;
    }
    if (args.length === 0 && SUBCOMMANDS.has(arg)) throw new LaunchArgsError(`gemini ${arg} is not the interactive TUI that tether mirrors; run it directly`);
    args.push(arg);
  }
  return { args, permissionMode, bypass: permissionMode === 'bypassPermissions', resumeId, model, continue: continueLast, addedDirs };
}
