// session/options.ts: what a session runner is started with and what it returns, whatever the launch
// kind. Its own file so the runner's parts (session/link, session/launch) and the command that starts
// a runner read it without importing session/core, which imports them.
import type { AgentKind } from '@tether/shared';
import type { AttachedLaunch } from './attached-launch.ts';

export type RunnerOptions = {
  userArgs: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  hub: { url: string; token: string } | null;
  tetherHome: string;
  /** `attached`: the desk terminal drives the PTY (stdin TTY). `headless`: output goes only to the hub. */
  desk: 'attached' | 'headless';
  /** Where diagnostics go (never the desk: the TUI owns it). */
  logFile?: string;
  /** `headless`: the agent's own headless mode (claude: `claude -p` with stream-json), no terminal.
   *  `attached`: a background session the agent runs on its own (`backgroundId`), attached to in a
   *  PTY (runner/attached/). Default `pty`. */
  launchKind?: 'pty' | 'headless' | 'attached';
  /** `attached`: the agent's id of the background session to attach to. */
  backgroundId?: string;
  /** Set by the runner's root once an attached launch holds its background session (never by a command). */
  attached?: AttachedLaunch;
  /** The coding agent to run. Default `claude`. */
  agent?: AgentKind;
};

export type RunnerResult = { exitCode: number; sessionId: string; failure: string | null };
