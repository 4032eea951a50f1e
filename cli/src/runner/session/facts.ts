// session/facts.ts: the session's fields the hub sees change (session:update through the outbox):
// its status (derived by status.ts from the facts parts publish; the one place it is patched), who is in control, the mode and effort the agent reports
// (hook payloads, its footer), the tokens its transcript says it used, and a command typed for
// someone that is over.
import {
  EffortLevelSchema,
  PermissionModeSchema,
  type EffortLevel,
  type PermissionMode,
  type SessionCommandFinished,
  type SessionPatch,
  type SessionStatus,
  type SessionUsage,
} from '@tether/shared';
import type { HubLink } from '../../hub-link/link.ts';
import { createControllerTracker } from './controller.ts';
import { createStatusTracker } from './status.ts';

/** The session as the hub sees it; runners change fields and report them with `patch`. */
export type SessionState = {
  id: string;
  status: SessionStatus;
  agentSessionId: string | null;
  model: string | null;
  permissionMode: PermissionMode;
  /** The desk took an agent whose mode is tether's gate out of the mode where it runs whatever the
   *  gate allows (Gemini out of yolo): its own policy may ask after an allow (AgentScreen.ownPolicyAsks). */
  agentAsksToo?: boolean;
  /** Tokens used so far (the resume state keeps it with the transcript offset). */
  usage: SessionUsage | null;
};

export function createSessionFacts(o: { state: SessionState; link: () => HubLink | null }) {
  const { state } = o;
  const patch = (p: SessionPatch) => {
    o.link()?.push('session:update', { sessionId: state.id, patch: p });
  };
  let effort: EffortLevel | null = null;
  return {
    patch,
    /** A command typed into the agent finished (SessionCommandFinished): queued behind any patch. */
    finishedCommand(finished: Omit<SessionCommandFinished, 'sessionId'>) {
      o.link()?.push('session:command-finished', { sessionId: state.id, ...finished });
    },
    controller: createControllerTracker({ report: (next) => patch({ controller: next }) }),
    /** What a part saw (status.ts): the derived status is patched when it changes. An end is told
     *  by session:end, not a patch. */
    status: createStatusTracker({
      onChange: (next) => {
        state.status = next;
        if (next !== 'ended' && next !== 'failed') patch({ status: next });
      },
    }),
    /** Every hook payload names the agent's current mode: the desk may have cycled it (Shift+Tab). */
    followModeOf(payload: Record<string, unknown>) {
      const parsed = PermissionModeSchema.safeParse(payload.permission_mode);
      if (!parsed.success || parsed.data === state.permissionMode) return;
      state.permissionMode = parsed.data;
      patch({ permissionMode: state.permissionMode });
    },
    /** The tokens the agent's transcript says the session used (one reading per read): patched only
     *  when it differs from what the hub was last told. */
    followUsage(usage: SessionUsage) {
      const before = state.usage;
      if (before && (Object.keys(usage) as Array<keyof SessionUsage>).every((key) => before[key] === usage[key])) return;
      state.usage = usage;
      patch({ usage });
    },
    /** The agent's effort level, from a hook payload (`effort.level`) or its footer (`● high · /effort`). */
    followEffort(level: unknown) {
      const parsed = EffortLevelSchema.safeParse(level);
      if (!parsed.success || parsed.data === effort) return;
      effort = parsed.data;
      patch({ effort });
    },
  };
}
