// identity-gate.ts: when a PTY session's hub link may open. At once, unless the agent picks the
// session itself (`--continue`): then SessionStart (source resume) names it, the resume state maps it
// to its tether session, and only then is the session registered (a new one past WAIT_MS, or when a
// dialog comes up first: the hub must hear it). The agent exiting settles it too.
import { loadResumeState } from '../session/resume-state.ts';
import type { SessionCore } from '../session/core.ts';

/** How long the hub link waits for SessionStart to say which session the agent continued (claude:
 *  ~1 s after spawn). Past it the session is registered as a new one. */
const CONTINUE_IDENTITY_WAIT_MS = 15_000;

export function createIdentityGate(o: { core: SessionCore; continuing: boolean; tetherHome: string; open: () => void }) {
  const { core } = o;
  let settled = !o.continuing;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const settle = (why: string) => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!settled) core.log(`--continue: session ${core.state.id} (${why})`);
    settled = true;
    o.open();
  };
  core.onCleanup(() => timer && clearTimeout(timer));
  return {
    settled: () => settled,
    settle,
    /** The agent was spawned: wait no longer than CONTINUE_IDENTITY_WAIT_MS. */
    spawned() {
      if (!settled) timer = setTimeout(() => settle('no SessionStart in time'), CONTINUE_IDENTITY_WAIT_MS);
    },
    /** SessionStart: which agent session this is, and so which tether session. */
    sessionStarted(payload: Record<string, unknown>) {
      if (settled) return;
      const known = payload.source === 'resume' && typeof payload.session_id === 'string' ? loadResumeState({ home: o.tetherHome, agentSessionId: payload.session_id }) : null;
      if (known) core.adopt(known);
      settle(known ? `continues agent session ${String(payload.session_id)}` : 'an agent session tether has not seen');
    },
  };
}
