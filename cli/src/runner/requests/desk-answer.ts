// desk-answer.ts: a request the desk answered in claude's own dialog. claude acts on that answer and
// ignores the hook's, so the hub hears at once that the desk took it (every phone clears; the audit
// says "Claude's dialog"), and what was chosen follows once the tool's result (transcript,
// PostToolUse) tells. Results are remembered a while because one can arrive before the desk answer
// is reported, or just after claude dropped its hook request (Esc in the dialog).
import { hostname } from 'node:os';
import type { PendingRequest } from '@tether/shared';
import type { HubLink } from '../../hub-link/link.ts';

export type DeskDecision = 'allow' | 'deny';

/** Tool results remembered, by tool_use id. */
const MAX_RECENT_RESULTS = 64;
const RESULT_POLL_MS = 50;

export type DeskAnswers = ReturnType<typeof createDeskAnswers>;

export function createDeskAnswers(o: { sessionId: () => string; link: () => HubLink | null; log: (line: string) => void; stopped: () => boolean }) {
  /** Requests the desk answered in claude's dialog, by tool_use id, until their result says how. */
  const inDialog = new Map<string, string>();
  /** Tool results seen lately, by tool_use id: one can arrive while a desk answer is being reported. */
  const recentResults = new Map<string, DeskDecision>();
  const device = `desk@${hostname()}`.slice(0, 100);

  const reportDialogOutcome = (requestId: string, decision: DeskDecision) => {
    o.log(`approval ${requestId}: answered in claude's dialog at the desk: ${decision}`);
    // Best effort: the audit keeps "Claude's dialog" without the choice if the hub is away now.
    void o.link()?.request('approval:dialog-outcome', { sessionId: o.sessionId(), requestId, decision });
  };

  return {
    /** A tool's result: remembered, and reported for a request the desk answered before it was known. */
    result(toolUseId: string, decision: DeskDecision) {
      recentResults.set(toolUseId, decision);
      if (recentResults.size > MAX_RECENT_RESULTS) recentResults.delete(recentResults.keys().next().value!);
      const requestId = inDialog.get(toolUseId);
      if (!requestId) return;
      inDialog.delete(toolUseId);
      reportDialogOutcome(requestId, decision);
    },

    /** The tool result of `toolUseId` once the transcript has it, or null after `ms`. */
    async resultWithin(r: { toolUseId: string; ms: number }): Promise<DeskDecision | null> {
      const deadline = Date.now() + r.ms;
      for (;;) {
        const seen = recentResults.get(r.toolUseId);
        if (seen || Date.now() >= deadline || o.stopped()) return seen ?? null;
        await new Promise((resolve) => setTimeout(resolve, RESULT_POLL_MS));
      }
    },

    /** claude already acted on the desk's answer and ignores ours: clear every phone now, and fill
     *  in the choice once it is known. */
    async answered(a: { link: HubLink; request: PendingRequest; decision: DeskDecision | null }) {
      const { request } = a;
      const ack = await a.link.request('approval:desk-answer', { sessionId: o.sessionId(), requestId: request.id, answer: null, device });
      if (ack?.ok && !ack.won) o.log(`approval ${request.id}: ${ack.resolution.answeredBy ?? 'the hub'} answered as the desk did; claude took the desk's answer`);
      if (ack?.ok && ack.won) {
        const decision = a.decision ?? (request.toolUseId ? recentResults.get(request.toolUseId) : undefined);
        if (decision) reportDialogOutcome(request.id, decision);
        else if (request.toolUseId) inDialog.set(request.toolUseId, request.id);
      }
    },
  };
}
