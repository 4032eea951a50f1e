// launch-plan.ts: how tether reads a user's arguments to an agent (Agent.plan). Its own file because
// both the Agent record (agent.ts) and the headless transport (headless-transport.ts) speak of it.
import type { PermissionMode } from '@tether/shared';

/** The user's own arguments as tether reads them. `args` are passed on verbatim. */
export type LaunchPlan = {
  args: string[];
  /** The permission mode the user asked for (`default` when none). */
  permissionMode: PermissionMode;
  /** True when the user explicitly asked to skip permission prompts. */
  bypass: boolean;
  /** The agent session the user asked to resume, when named. */
  resumeId: string | null;
  /** `resumeId` is the agent's own session id, checked at the edge (never a term a picker searches,
   *  as claude's `--resume` may be): the session is known before the agent names it. A UUID is. */
  resumeIdChecked?: boolean;
  /** The model the user asked for, when named. */
  model: string | null;
  /** Continue the last session: the agent picks it; the runner learns which at SessionStart. */
  continue: boolean;
  /** The folders the user gave the agent beyond its working directory, as typed (the runner makes
   *  them absolute against its cwd): claude and Codex `--add-dir`, Gemini `--include-directories`. */
  addedDirs: string[];
  /** The resumed session goes on as a new one of its own (claude's --fork-session): a new agent
   *  session, told at SessionStart; the resumed one stays as it was. */
  fork?: boolean;
};
