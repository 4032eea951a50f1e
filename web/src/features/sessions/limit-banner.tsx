// limit-banner.tsx: a session at its agent's usage limit (shared usage-limit.ts). On the session:
// "Waiting for the limit to reset at 15:00", what happens then (the agent goes on by itself, tether
// continues it with the chosen prompt, or nothing), and the switch and prompt for this session,
// kept on the hub (session:limit-continue). A session with no choice of its own follows the
// namespace's default (Schedules → Unattended work), and the banner says so. In the list: a badge
// with the reset time.
import { useEffect, useState } from 'react';
import type { LimitContinue, Session, UsageLimit } from '@tether/shared';
import { DEFAULT_CONTINUE_PROMPT, guardStopShort, limitWaitText } from '@tether/shared/wire';
import { formatClockTime } from '../../lib/format.ts';
import { requestHub } from '../../lib/socket.ts';
import { useUnattended } from '../../lib/use-unattended.ts';
import { Badge } from '../../lib/ui/badge.tsx';
import { useNow } from '../../lib/ui/use-now.ts';
import './limit-banner.css';

/** The banner's first line, capitalised: "Waiting for the limit to reset at 15:00". */
function waitLine(limit: UsageLimit, now: number): string {
  const text = limitWaitText(limit, { now, clock: formatClockTime });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `byDefault`: the namespace's default when the session has no choice of its own (else null). */
function nextStep(limit: UsageLimit, choice: LimitContinue | null, byDefault: boolean): string {
  // The guard on unattended work held it (everything paused, or the day's cap): not tried again for this reset.
  if (limit.held) return `tether did not continue it: ${guardStopShort(limit.held)}. Send a prompt to go on.`;
  if (limit.continued) return 'tether sent the continue prompt after the reset.';
  const why = byDefault ? ' (your default for sessions at a limit, in Schedules)' : '';
  if (limit.agentResumes) {
    const fallback = choice?.on ? ` tether sends “${choice.prompt}” if it is still stopped 10 minutes later${why}.` : '';
    return `The agent goes on by itself after the reset.${fallback}`;
  }
  return choice?.on ? `tether sends “${choice.prompt}” after the reset${why}.` : 'Nothing happens by itself after the reset.';
}

export function LimitBanner({ session }: { session: Session }) {
  // Only a session at its limit asks the hub for the namespace's default.
  return session.limit ? <AtLimit session={session} limit={session.limit} /> : null;
}

function AtLimit({ session, limit }: { session: Session; limit: UsageLimit }) {
  const now = useNow(10_000);
  const { guard } = useUnattended();
  const byDefault = session.limitContinue ? null : (guard?.limitContinue ?? null);
  // What happens at the reset: the session's own choice, else the namespace's default.
  const choice = session.limitContinue ?? byDefault;
  const [prompt, setPrompt] = useState(choice?.prompt ?? DEFAULT_CONTINUE_PROMPT);
  const [saving, setSaving] = useState(false);
  // Shown at once; the hub's answer (session:updated) then stands.
  const [on, setOn] = useState(choice?.on ?? false);
  useEffect(() => setPrompt(choice?.prompt ?? DEFAULT_CONTINUE_PROMPT), [choice?.prompt]);
  useEffect(() => setOn(choice?.on ?? false), [choice?.on]);
  const save = async (next: boolean) => {
    setSaving(true);
    setOn(next);
    try {
      await requestHub('session:limit-continue', { sessionId: session.id, choice: { on: next, prompt: prompt.trim() || DEFAULT_CONTINUE_PROMPT } });
    } catch {
      setOn(choice?.on ?? false);
    } finally {
      setSaving(false);
    }
  };
  const inputId = `limit-prompt-${session.id}`;
  return (
    <section className="limit-banner" aria-label="Usage limit" data-testid="limit-banner">
      <p className="limit-banner-wait">{waitLine(limit, now)}</p>
      <p className="limit-banner-next">{nextStep(limit, choice, byDefault !== null)}</p>
      {limit.continued ? null : (
        <div className="limit-banner-choice">
          <label className="limit-banner-switch">
            <input type="checkbox" checked={on} disabled={saving} onChange={(event) => void save(event.currentTarget.checked)} />
            Continue at the reset
          </label>
          <label className="sr-only" htmlFor={inputId}>
            Prompt sent at the reset
          </label>
          <input
            id={inputId}
            className="field-input limit-banner-prompt"
            value={prompt}
            maxLength={2000}
            disabled={saving}
            onChange={(event) => setPrompt(event.currentTarget.value)}
            onBlur={() => (choice?.on && prompt.trim() !== choice.prompt ? void save(true) : undefined)}
          />
        </div>
      )}
    </section>
  );
}

/** The list row's mark: the reset time, or that it passed. */
export function LimitBadge({ limit, now }: { limit: UsageLimit; now: number }) {
  const waiting = limit.resetsAt > now;
  return (
    <Badge tone="attention" title={limitWaitText(limit, { now, clock: formatClockTime })}>
      {waiting ? `limit · resets ${formatClockTime(limit.resetsAt)}` : 'limit reset'}
    </Badge>
  );
}
