// asking.ts: a headless agent's requests to a person (HeadlessEvents.ask), put to the phone through
// the session's approvals: while one waits the session is `waiting` (the request registry tells the
// status), the agent may stop waiting (withdraw: its own cancel, an interrupted turn), and the
// session's end withdraws whatever still waits. An MCP server's form goes through the session's
// elicitations (kind elicitation, the same form a claude session's Elicitation hook sends).
import type { ElicitationAnswer } from '@tether/shared';
import type { HeadlessElicitation, HeadlessRequest } from '../../agents/headless-transport.ts';
import type { Verdict } from '../requests/verdict.ts';
import type { Approvals } from '../requests/approvals.ts';
import type { Elicitations } from '../requests/elicitation.ts';
import type { SessionCore } from '../session/core.ts';

export type HeadlessAsking = ReturnType<typeof createHeadlessAsking>;

export function createHeadlessAsking(o: { core: Pick<SessionCore, 'onCleanup'>; approvals: Approvals; elicitations: Pick<Elicitations, 'form'> }) {
  const waiting = new Map<string, AbortController>();
  o.core.onCleanup(() => {
    for (const cancel of waiting.values()) cancel.abort();
  });
  return {
    async ask(request: HeadlessRequest): Promise<Verdict | null | 'withdrawn'> {
      const cancel = new AbortController();
      waiting.set(request.id, cancel);
      const verdict = await o.approvals.ask({ toolName: request.toolName, toolInput: request.toolInput, toolUseId: request.toolUseId, askedBy: request.askedBy ?? null, signal: cancel.signal });
      waiting.delete(request.id);
      return cancel.signal.aborted ? 'withdrawn' : verdict;
    },
    async elicit(request: HeadlessElicitation): Promise<ElicitationAnswer | null | 'withdrawn'> {
      const cancel = new AbortController();
      waiting.set(request.id, cancel);
      const answer = await o.elicitations.form({ input: request.input, signal: cancel.signal });
      waiting.delete(request.id);
      return cancel.signal.aborted ? 'withdrawn' : answer;
    },
    withdraw(id: string) {
      waiting.get(id)?.abort();
    },
  };
}
