// share-panel.tsx: make a read-only link to this session, copy it, revoke it.
// Flow: "Create link" ─POST /api/sessions/:id/share {expiresInSec}─► {url, jti, expiresAt} ─► shown
// with Copy; "Revoke" ─DELETE …/share/:jti─► the hub drops every viewer using it at once.
// Whoever holds the link can watch the chat and terminal until it expires; never type or answer.
import { useState } from 'react';
import type { ShareCreated } from '@tether/shared';
import { hubApi } from '../../lib/hub.ts';
import { formatDuration } from '../../lib/format.ts';
import { Spinner } from '../../lib/ui/badge.tsx';

/** Lifetimes offered; the hub accepts a minute to 30 days. A day is the usual "look at this". */
const LIFETIMES = [
  { label: '1 hour', seconds: 60 * 60 },
  { label: '1 day', seconds: 24 * 60 * 60 },
  { label: '7 days', seconds: 7 * 24 * 60 * 60 },
] as const;

type State =
  | { kind: 'choosing' }
  | { kind: 'creating' }
  | { kind: 'created'; link: ShareCreated; copied: boolean }
  | { kind: 'revoking'; link: ShareCreated }
  | { kind: 'revoked' };

export function SharePanel({ id, sessionId }: { id: string; sessionId: string }) {
  const [seconds, setSeconds] = useState<number>(LIFETIMES[1].seconds);
  const [state, setState] = useState<State>({ kind: 'choosing' });
  const [error, setError] = useState<string | null>(null);

  const create = async () => {
    setError(null);
    setState({ kind: 'creating' });
    try {
      const link = await hubApi.createShareLink({ sessionId, expiresInSec: seconds });
      setState({ kind: 'created', link, copied: false });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setState({ kind: 'choosing' });
    }
  };

  const copy = async (link: ShareCreated) => {
    try {
      await navigator.clipboard.writeText(link.url);
      setState({ kind: 'created', link, copied: true });
    } catch {
      setError('Copying is blocked here: select the link and copy it by hand.');
    }
  };

  const revoke = async (link: ShareCreated) => {
    setError(null);
    setState({ kind: 'revoking', link });
    try {
      await hubApi.revokeShareLink({ sessionId, jti: link.jti });
      setState({ kind: 'revoked' });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setState({ kind: 'created', link, copied: false });
    }
  };

  const link = state.kind === 'created' || state.kind === 'revoking' ? state.link : null;
  return (
    <div className="model-panel share-panel" id={id} role="dialog" aria-label="Share read-only">
      <div className="model-panel-title">Share read-only</div>
      {link ? (
        <>
          <input
            className="field-input field-mono share-url"
            aria-label="Share link"
            readOnly
            value={link.url}
            onFocus={(event) => event.currentTarget.select()}
          />
          <div className="share-actions">
            <button type="button" className="button button-primary" onClick={() => void copy(link)}>
              {state.kind === 'created' && state.copied ? 'Copied' : 'Copy link'}
            </button>
            <button type="button" className="button" onClick={() => void revoke(link)} disabled={state.kind === 'revoking'}>
              {state.kind === 'revoking' ? <Spinner size={14} /> : null}
              Revoke
            </button>
          </div>
          <p className="model-note">
            Anyone with this link can watch the chat and terminal for {formatDuration(link.expiresAt - Date.now())}. They can't type,
            send or answer.
          </p>
        </>
      ) : state.kind === 'revoked' ? (
        <p className="model-note" role="status">
          Link revoked: anyone watching with it was disconnected.
        </p>
      ) : (
        <>
          <div className="model-options" role="radiogroup" aria-label="Link lasts">
            {LIFETIMES.map((lifetime) => (
              <button
                key={lifetime.seconds}
                type="button"
                role="radio"
                className="model-option"
                aria-checked={seconds === lifetime.seconds}
                aria-pressed={seconds === lifetime.seconds}
                onClick={() => setSeconds(lifetime.seconds)}
              >
                {lifetime.label}
              </button>
            ))}
          </div>
          <button type="button" className="button button-primary" onClick={() => void create()} disabled={state.kind === 'creating'}>
            {state.kind === 'creating' ? <Spinner size={14} /> : null}
            Create link
          </button>
          <p className="model-note">The link shows this session's chat and terminal, read-only, until it expires or you revoke it.</p>
        </>
      )}
      {error ? (
        <p className="model-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
