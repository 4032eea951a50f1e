// send-on.tsx: "Send on" on an answered review card (issue 29): the findings go to another reviewer,
// either a new review by one of the machine's reviewer agents, which checks them against the code
// (review:start { checks }: the hub puts them in its first prompt), or, as a follow-up, a review of
// this session that still runs (review:ask with the findings and the same request).
import { useEffect, useId, useRef, useState } from 'react';
import type { Review, Session } from '@tether/shared';
import { agentDisplayName } from '@tether/shared/wire';
import { useMachines } from '../../lib/queries.ts';
import { requestHub } from '../../lib/socket.ts';
import { ReviewFormFooter } from './form-footer.tsx';
import { findingsText } from './findings.ts';
import { reviewerChoices } from './start-review.tsx';

/** A new reviewer waits for the hub to read the diff and the reviewer to be ready. */
const START_TIMEOUT_MS = 120_000;
const ASK_TO_CHECK = 'Check these findings against the code: which hold, which do not and why, and what was missed?';

type Target = { key: string; label: string; send: () => Promise<string> };

export function SendOn(o: { review: Review; parent: Session; others: readonly Review[]; onDone: (note: string) => void; onCancel: () => void }) {
  const { review, parent } = o;
  const machines = useMachines();
  const reviewer = agentDisplayName(review.agent);
  const name = useId();
  const targets: Target[] = [
    // Another agent than this reviewer's first: a second opinion on the second opinion.
    ...reviewerChoices(parent, machines.data)
      .sort((a, b) => Number(a.agent === review.agent) - Number(b.agent === review.agent))
      .map((c) => ({
      key: `new-${c.agent}`,
      label: `A new ${c.name} review`,
      send: async () => {
        await requestHub('review:start', { sessionId: parent.id, agent: c.agent, checks: review.id }, { timeoutMs: START_TIMEOUT_MS });
        return `A new ${c.name} review checks these findings.`;
      },
    })),
    ...o.others
      .filter((r) => r.id !== review.id && r.state !== 'ended' && r.state !== 'failed')
      .map((r) => ({
        key: r.id,
        label: `The ${agentDisplayName(r.agent)} review that runs (${r.state})`,
        send: async () => {
          await requestHub('review:ask', { reviewId: r.id, promptId: crypto.randomUUID(), text: `${findingsText(review, reviewer, 'reviewer')}\n\n${ASK_TO_CHECK}` });
          return `Sent to the ${agentDisplayName(r.agent)} review.`;
        },
      })),
  ];
  const [picked, setPicked] = useState<string | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // The cards scroll in a short strip on a phone: bring the choices and their buttons into view.
  useEffect(() => {
    boxRef.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const target = targets.find((t) => t.key === (picked ?? targets[0]?.key));
  const send = async () => {
    if (!target) return;
    setBusy(true);
    setError(null);
    try {
      o.onDone(await target.send());
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  };
  return (
    <div className="review-compose" ref={boxRef}>
      <fieldset className="review-agents">
        <legend>Send {reviewer}'s findings on to</legend>
        {targets.length === 0 ? <p className="review-note">{machines.isLoading ? 'Loading the machine…' : 'No other reviewer is available on this machine.'}</p> : null}
        {targets.map((t) => (
          <label key={t.key} className="review-agent">
            <input type="radio" name={name} checked={target?.key === t.key} onChange={() => setPicked(t.key)} disabled={busy} /> {t.label}
          </label>
        ))}
      </fieldset>
      <ReviewFormFooter error={error} busy={busy} canSend={!!target} action="Send on" onCancel={o.onCancel} onSend={() => void send()} />
    </div>
  );
}
