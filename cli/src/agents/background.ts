// background.ts: sessions an agent runs on its own, away from any terminal (claude's `claude --bg`),
// that tether attaches to rather than starts: the agent-neutral shape an agent's room fills in
// (Agent.background). The runner's attached launch kind (runner/attached/) drives it; the index of
// what runs on a machine lists through it.
import type { AgentCapabilities } from '@tether/shared';

/** One background session as its agent lists it. */
export type BackgroundSession = {
  /** The agent's id for it (claude: 8 hex), what attach and stop take. */
  id: string;
  /** Its conversation's id: the transcript that becomes the chat. */
  agentSessionId: string;
  cwd: string;
  /** Its process, when the agent says (claude 2.1.197 does not). */
  pid: number | null;
  /** The agent's name for it (claude: the first prompt). */
  title: string | null;
  startedAt: number;
};

type Call = { binary: string; env: NodeJS.ProcessEnv };

export type AgentBackground = {
  /** Whether this binary has background sessions; the reason when not. One short process. */
  support(o: Call): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Its live background sessions, asked of the agent now (never cached, never polled). */
  list(o: Call): Promise<BackgroundSession[]>;
  /** Where the conversation of `session` is written. */
  transcriptPath(o: { env: NodeJS.ProcessEnv; session: BackgroundSession }): string;
  /** The arguments that draw session `id` in the terminal they run in. */
  attachArgs(id: string): string[];
  /** Ends session `id` in the agent's own pool. Only ever on a person's confirmed request. */
  stop(o: Call & { id: string }): Promise<void>;
  /** What the phone may do with an attached session: no hooks run in it (it was started without
   *  tether's), so only what its screen draws reaches the phone, and `adopted` says so. */
  capabilities(id: string): AgentCapabilities;
  /** Keys that leave the attached view with the session still running in the agent's pool. */
  detachKeys: string;
};
