// pty-context.ts: what the parts of a PTY session share (session.ts makes it and fills it in as the
// session starts): the options and the agent, the session core, the screen model and the prompt
// queue from the start; the PTY, its terminal stream and its ender once they exist (null before).
import type { Agent } from '../../agents/agent.ts';
import type { Ender } from '../../agents/ender.ts';
import type { PtyProcess } from '../../pty/pty.ts';
import type { ScreenModel } from '../../screen/screen.ts';
import type { PromptQueue } from './prompt-queue.ts';
import type { RunnerOptions, SessionCore } from '../session/core.ts';
import type { TerminalStream } from './terminal-stream.ts';

export type PtyContext = {
  readonly options: RunnerOptions;
  readonly agent: Agent;
  readonly core: SessionCore;
  readonly screen: ScreenModel;
  readonly queue: PromptQueue;
  /** This PTY's id: offsets restart at 0 in every runner, also for a resumed session. */
  readonly run: string;
  pty: PtyProcess | null;
  stream: TerminalStream | null;
  /** The phone's End / `tether stop`: the agent's own exit (Agent.endPty). */
  ender: Ender | null;
};
