// recording-link.ts: a HubLink for unit tests of what a runner asks the hub (approvals, forms). It
// records every request and acks it as the hub would: ok, or the desk's answer winning (or losing)
// the race, or no ack at all as when the hub is away, or `gone` for a request the person withdrew
// meanwhile (its id in `gone`). Not wired anywhere; only *.test.ts import it.
import type { PendingRequest } from '@tether/shared';
import type { HubLink } from '../hub-link/link.ts';

export type SentRequest = { event: string; payload: Record<string, unknown> };
export type RecordingLink = HubLink & { sent: SentRequest[] };

export function recordingLink(options: { refuse?: boolean; deskWins?: boolean; gone?: ReadonlySet<string> } = {}): RecordingLink {
  const sent: SentRequest[] = [];
  return {
    sent,
    connected: () => true,
    push: () => {},
    volatile: () => {},
    send: () => true,
    drain: async () => true,
    stop: () => {},
    request: (async (event: string, payload: Record<string, unknown>) => {
      sent.push({ event, payload });
      if (options.refuse) return null;
      if (event === 'approval:request' && options.gone?.has(payload.id as string)) return { ok: false, code: 'gone', message: 'withdrawn' };
      if (event === 'approval:desk-answer') {
        const won = options.deskWins ?? true;
        return { ok: true, won, resolution: { requestId: payload.requestId, answeredBy: won ? 'desk' : 'phone' } };
      }
      return { ok: true };
    }) as unknown as HubLink['request'],
  };
}

/** The first approval:request the link was asked to send, as the hub would store it. */
export function sentRequest(link: RecordingLink): PendingRequest {
  const found = link.sent.find((s) => s.event === 'approval:request');
  if (!found) throw new Error('no approval:request sent');
  return found.payload as unknown as PendingRequest;
}
