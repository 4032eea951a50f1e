// launch.ts: the arguments tether takes for an opencode session and how it reads them. Its TUI takes
// them as they are (a PTY launch passes them on); `opencode acp` takes none of a session's settings on
// its command line, so headless they are read into the plan and set over ACP once the session is open:
//
//   -m, --model <provider/model>    session/set_model
//   --agent plan | build            session/set_mode (its plan agent is the plan mode)
//   -s, --session <id>              session/load
//
// Anything else is refused: headless it would be silently lost (`opencode acp` takes none of it).
import { agentResumeId, LaunchArgsError, type LaunchPlan } from '../agent.ts';
import type { PermissionMode } from '@tether/shared';

/** Its ACP session modes, by the permission mode each is on the wire. */
export const OPENCODE_MODES: Partial<Record<PermissionMode, string>> = { default: 'build', plan: 'plan' };

const AGENT_MODES: Record<string, PermissionMode> = { build: 'default', plan: 'plan' };

export function planOpencodeLaunch(userArgs: readonly string[]): LaunchPlan {
  let model: string | null = null;
  let resumeId: string | null = null;
  let permissionMode: PermissionMode = 'default';
  for (let i = 0; i < userArgs.length; i++) {
    const arg = userArgs[i]!;
    const name = arg.startsWith('--') && arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (!['-m', '--model', '-s', '--session', '--agent'].includes(name)) throw new LaunchArgsError(`opencode ${arg}: tether takes -m, --session and --agent only (what \`opencode acp\` can be told too)`);
    const value = name !== arg ? arg.slice(name.length + 1) : userArgs[++i];
    if (value === undefined || value === '') throw new LaunchArgsError(`opencode ${name} needs a value`);
    if (name === '-m' || name === '--model') model = value;
    // Its id goes on its command line again at a resume: checked here (agent session id format).
    else if (name === '-s' || name === '--session') resumeId = agentResumeId(value);
    else {
      const mode = AGENT_MODES[value];
      if (!mode) throw new LaunchArgsError(`opencode --agent ${value}: tether knows build and plan`);
      permissionMode = mode;
    }
  }
  // The TUI reads them itself (headless, only `acp` goes on its command line: headless.ts).
  return { args: [...userArgs], permissionMode, bypass: false, resumeId, resumeIdChecked: resumeId !== null, model, continue: false, addedDirs: [] };
}

/** A daemon's start in these words (Agent.spawnArgs). */
export function opencodeSpawnArgs(o: { model: string | null; permissionMode: PermissionMode | null; resumeId: string | null }): string[] {
  const agent = o.permissionMode === 'plan' ? ['--agent', 'plan'] : [];
  return [...(o.resumeId ? ['--session', o.resumeId] : []), ...(o.model ? ['--model', o.model] : []), ...agent];
}
