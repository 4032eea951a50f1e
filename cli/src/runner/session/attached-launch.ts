// attached-launch.ts: what a session that tether attaches to, rather than starts, runs with in place
// of a launch plan (runner/attached/ makes it; the PTY kind runs it, the core registers it). The
// agent already runs in its own pool (claude --bg): tether's PTY holds only the agent's attach view,
// no hooks of tether's run in it, and its conversation is known before anything is drawn.
import type { AgentCapabilities } from '@tether/shared';
import type { Ender } from '../../agents/ender.ts';

export type PtyHandle = { write(data: string): void; kill(signal?: string): void; exited: Promise<unknown> };

export type AttachedLaunch = {
  /** The agent's id of the background session. */
  backgroundId: string;
  /** Its conversation: the session's agent session id from the start. */
  agentSessionId: string;
  /** The agent's binary and the arguments that draw the session in our PTY. */
  binary: string;
  args: string[];
  /** Its transcript, followed from its first line: the whole conversation becomes the chat. */
  transcriptPath: string;
  /** Registered in place of the agent's own (capabilities.adopted says what it lacks). */
  capabilities: AgentCapabilities;
  /** The phone's End or `tether stop`: leaves the view, never the session (it runs on in its pool). */
  detach(o: { pty: PtyHandle; log: (line: string) => void }): Ender;
  /** Ends the background session in the agent's own pool (claude stop): only on a person's
   *  confirmed request from the phone (SessionStop.stopInPool). Rejects with why it failed. */
  stopInPool(): Promise<void>;
  /** Lets the next adopter have it (runs when the session is over, however it ended). */
  release(): void;
};
