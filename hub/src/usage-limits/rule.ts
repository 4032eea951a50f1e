// rule.ts: what the hub does about a session at its usage limit, and when. Pure: the room
// (usage-limits.ts) keeps the timers and acts.
//
//   at resetsAt              tell the person (a push, once per reset)
//   at resetsAt + margin     continue it, when the agent does not wait it out itself (Codex, claude -p,
//                            claude before 2.1.332) and the person chose so
//   at resetsAt + agentGrace continue an agent that waits it out itself but is still stopped (it
//                            exited or relaunched during the wait, so it will not go on by itself)
//
// Never a loop: one continue per reset (the store's claim); a continue that meets the limit again
// is a new report with the next reset, which is waited for like the first.
import { isFinalStatus, type LimitContinue, type Session } from '@tether/shared';

export type LimitTiming = {
  /** After the stated reset, before tether continues (clocks differ; the provider's window may close a
   *  little late). Default 30 s. */
  marginMs: number;
  /** How long tether leaves an agent that waits out its limit itself to do so. claude 2.1.332 went on
   *  75 s after the reset against the fake API; default 10 minutes. */
  agentGraceMs: number;
};

export const DEFAULT_LIMIT_TIMING: LimitTiming = { marginMs: 30_000, agentGraceMs: 10 * 60_000 };

/** The person's choice for this session, else the namespace's default (shared unattended.ts; the
 *  hub's own until the namespace chose one). */
export function continueChoice(session: Pick<Session, 'limitContinue'>, byDefault: LimitContinue): LimitContinue {
  return session.limitContinue ?? byDefault;
}

export type LimitPlan = { resetsAt: number; notifyAt: number; continueAt: number | null; prompt: string };

/** When to tell the person and when (if ever) to continue; null when the session is not at a limit.
 *  An ended session (the agent exited during the wait) is only told about: a continue needs a resume. */
export function planFor(session: Session, o: { timing: LimitTiming; byDefault: LimitContinue }): LimitPlan | null {
  const limit = session.limit;
  if (!limit) return null;
  const choice = continueChoice(session, o.byDefault);
  const continueAt = choice.on && !limit.continued && !isFinalStatus(session.status) ? limit.resetsAt + (limit.agentResumes ? o.timing.agentGraceMs : o.timing.marginMs) : null;
  return { resetsAt: limit.resetsAt, notifyAt: limit.resetsAt, continueAt, prompt: choice.prompt };
}

/** At continueAt: the session still reports this very limit and sits idle (a turn going on, or a
 *  person's request open, means someone or something already moved it). */
export function stillStopped(session: Session | null, resetsAt: number): session is Session {
  return session !== null && session.limit?.resetsAt === resetsAt && !session.limit.continued && session.status === 'idle';
}
