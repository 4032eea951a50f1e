// session/launch.ts: what the agent needs before it is spawned: its binary, the loopback hook server
// that its hooks call (hook-events.ts says what each event means), the hooks installed the agent's
// way (its room: claude's --settings file, Codex's -c overrides), its final arguments, and, in a PTY,
// the slash commands it takes (it prints no list of its own there).
import type { Agent, HookGate, HookInstall, LaunchPlan } from '../../agents/agent.ts';
import { startHookServer } from '../../hooks/server.ts';
import type { HubLink } from '../../hub-link/link.ts';
import type { SlashCommand } from '@tether/shared';
import type { Approvals } from '../requests/approvals.ts';
import type { Elicitations } from '../requests/elicitation.ts';
import { createHookHandler, type SessionHooks } from './hook-events.ts';
import type { SessionScope } from './scope.ts';
import type { SessionState } from './facts.ts';
import type { createSessionFacts } from './facts.ts';
import type { RunnerOptions } from './options.ts';

/** A hook can run a moment before the agent appends the line it reports; the transcript is read
 *  again this long after each hook. */
const TRANSCRIPT_LATE_WRITE_MS = 40;

export async function prepareLaunch(o: {
  agent: Agent;
  options: RunnerOptions;
  launchKind: 'pty' | 'headless';
  env: Record<string, string>;
  plan: LaunchPlan;
  scope: SessionScope;
  state: SessionState;
  facts: ReturnType<typeof createSessionFacts>;
  elicitations: Elicitations;
  link: () => HubLink | null;
  /** Reads what the agent wrote to its transcript since the last read. */
  pokeTranscript: () => Promise<void>;
  reportSlashCommands: (commands: SlashCommand[]) => void;
  failEarly: (reason: string) => Promise<never>;
  approvals: Approvals;
  hooks: SessionHooks;
  /** The session's attachments folder (made when asked). */
  attachmentsFolder: () => string;
}): Promise<{ binary: string; plan: LaunchPlan; hearing: Promise<void> | null }> {
  const { agent, options, scope, facts } = o;
  let binary: string;
  try {
    binary = agent.findBinary({ env: options.env });
  } catch (error) {
    return o.failEarly(error instanceof Error ? error.message : String(error));
  }
  /** The agent wrote to the transcript just before this hook (a prompt, a tool result, a reply):
   *  read now rather than at the next fallback poll, and once more for lines written just after. */
  const readTranscriptSoon = () => {
    void o.pokeTranscript();
    const again = setTimeout(() => void o.pokeTranscript(), TRANSCRIPT_LATE_WRITE_MS);
    again.unref?.();
  };
  /** The agent's own gate, once its hooks are installed (HookInstall.gate). */
  let gate: HookGate | undefined;
  const onHook = createHookHandler({
    hooks: o.hooks,
    approvals: o.approvals,
    elicitations: o.elicitations,
    state: o.state,
    patch: facts.patch,
    status: facts.status,
    link: o.link,
    onAny: (p) => {
      scope.pace.stir();
      facts.followModeOf(p);
      facts.followEffort((p.effort as { level?: unknown } | undefined)?.level);
    },
    readTranscriptSoon,
    plainVerdicts: agent.plainVerdicts === true,
    askedBy: agent.askedBy,
    ...(agent.hookDialect ? { dialect: agent.hookDialect } : {}),
    forkOf: o.plan.fork ? o.plan.resumeId : null,
    gate: () => gate,
  });
  const hookServer = startHookServer({ onHook });
  scope.onCleanup(() => hookServer.stop());
  let installed: HookInstall;
  try {
    installed = agent.installHooks({ endpoint: hookServer.endpoint, permissionHook: o.launchKind === 'pty', plan: o.plan, env: o.env, tetherHome: options.tetherHome, cwd: options.cwd });
  } catch (error) {
    return o.failEarly(`could not write the hook settings: ${String(error)}`);
  }
  scope.onCleanup(() => installed.remove());
  try {
    await installed.ready;
  } catch (error) {
    return o.failEarly(error instanceof Error ? error.message : String(error));
  }
  gate = installed.gate;
  // The variables its hooks need join the environment the agent is spawned with (the same object).
  if (installed.env) Object.assign(o.env, installed.env);
  const own = [...installed.args, ...(o.launchKind === 'pty' && agent.attachmentsFolderArgs ? agent.attachmentsFolderArgs(o.attachmentsFolder()) : [])];
  const plan = { ...o.plan, args: installed.prepend ? [...own, ...o.plan.args] : [...o.plan.args, ...own] };
  // A PTY agent lists nothing on its own: its room knows what it takes (claude: its built-ins for
  // its version and what it loads from disk); headless claude reports its own answer instead.
  if (o.launchKind === 'pty' && agent.slashCommands) o.reportSlashCommands(agent.slashCommands({ binary, env: o.env, cwd: options.cwd, tetherHome: options.tetherHome }));
  return { binary, plan, hearing: installed.hearing ?? null };
}
