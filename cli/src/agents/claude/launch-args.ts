// launch-args.ts: the argv claude gets. Every user argument passes through untouched; tether only
// adds `--settings <file>` (its hooks). Permission bypass is never added by tether: it is honoured
// only when the user typed it, and then the session is marked bypass so every viewer sees it.
// `--bare` and `--safe-mode` are refused because they switch hooks off (no approvals, no chat state).
import type { PermissionMode } from '@tether/shared';
import { PermissionModeSchema } from '@tether/shared';
import { LaunchArgsError, type LaunchPlan } from '../agent.ts';

export { LaunchArgsError, type LaunchPlan };

/** Flags that disable hooks, and with them the approval bridge and the session state. */
const REFUSED_FLAGS = new Set(['--bare', '--safe-mode']);

function flagValue(args: readonly string[], i: number, name: string): { value: string | null; next: number } {
  const arg = args[i]!;
  if (arg.startsWith(`${name}=`)) return { value: arg.slice(name.length + 1), next: i };
  const value = args[i + 1];
  if (value === undefined || value.startsWith('-')) return { value: null, next: i };
  return { value, next: i + 1 };
}

export function buildLaunchArgs(options: { userArgs: readonly string[] }): LaunchPlan {
  const { userArgs } = options;
  let permissionMode: PermissionMode = 'default';
  let bypass = false;
  let resumeId: string | null = null;
  let model: string | null = null;
  let continueLast = false;
  const addedDirs: string[] = [];
  let fork = false;
  for (let i = 0; i < userArgs.length; i++) {
    const arg = userArgs[i]!;
    if (arg === '--') break;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (REFUSED_FLAGS.has(name)) {
      throw new LaunchArgsError(`${name} turns claude's hooks off, which tether needs for chat state and approvals; run claude directly instead`);
    }
    if (arg === '--dangerously-skip-permissions' || arg === '--allow-dangerously-skip-permissions') {
      if (arg === '--dangerously-skip-permissions') {
        bypass = true;
        permissionMode = 'bypassPermissions';
      }
    } else if (name === '--permission-mode') {
      const { value, next } = flagValue(userArgs, i, name);
      i = next;
      const parsed = PermissionModeSchema.safeParse(value);
      if (parsed.success) {
        permissionMode = parsed.data;
        if (parsed.data === 'bypassPermissions') bypass = true;
      }
    } else if (name === '--resume' || name === '-r') {
      const { value, next } = flagValue(userArgs, i, name);
      i = next;
      resumeId = value;
    } else if (arg === '--fork-session') {
      fork = true;
    } else if (arg === '--continue' || arg === '-c') {
      continueLast = true;
    } else if (name === '--model') {
      const { value, next } = flagValue(userArgs, i, name);
      i = next;
      model = value;
    } else if (name === '--add-dir') {
      const { dirs, next } = addDirValues(userArgs, i);
      i = next;
      addedDirs.push(...dirs);
    }
  }
  return {
    // The user's args, verbatim; the hook settings come after them (agent.ts installHooks), and
    // claude merges `--settings` with the user's own settings.
    args: userArgs.filter((a) => a !== '--'),
    permissionMode,
    bypass,
    resumeId,
    model,
    continue: continueLast,
    addedDirs,
    fork,
  };
}

/** `--add-dir <directories...>` is variadic in claude (commander): it takes every argument up to the
 *  next option, as claude reads them; `--add-dir=<dir>` takes that one only. */
function addDirValues(args: readonly string[], i: number): { dirs: string[]; next: number } {
  const arg = args[i]!;
  if (arg.startsWith('--add-dir=')) return { dirs: [arg.slice('--add-dir='.length)].filter((d) => d !== ''), next: i };
  const dirs: string[] = [];
  let next = i;
  while (next + 1 < args.length && !args[next + 1]!.startsWith('-')) dirs.push(args[++next]!);
  return { dirs, next };
}
