// login-form.tsx: the sign-in screen. A one-time pairing code arrives from the QR link that
// `tether pair` (or `tether hub`) prints (`/#pair=tpc_…`, already stripped from the address bar by
// lib/hub.ts) or pasted; an access token arrives pasted, or from an old `/#token=` link. Either is
// exchanged once for a web session and never stored itself.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  ACCESS_TOKEN_PREFIX,
  HubError,
  loginWithPairCode,
  loginWithToken,
  PAIRING_CODE_PREFIX,
  takeFragmentCredential,
  type FragmentCredential,
} from '../../lib/hub.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { TetherMark } from '../../lib/ui/icons.tsx';
import './login.css';

/** Turns a failed pairing into a sentence that says what happened and how to get a new code. */
export function describePairError(error: unknown): string {
  if (error instanceof HubError) {
    if (error.status === 410) {
      return 'This pairing code has expired or was already used: each code works once, for 10 minutes. Run `tether pair` on your computer for a new one and scan its QR.';
    }
    if (error.status === 401 || error.status === 403) {
      return "This hub doesn't know that pairing code. Run `tether pair` on your computer for a new one and scan its QR.";
    }
    if (error.status === 400) return "That pairing code is incomplete. Scan the QR again, or run `tether pair` for a new one.";
  }
  return describeLoginError(error);
}

/** Turns a failed login into a sentence that says what to do next. */
export function describeLoginError(error: unknown): string {
  if (error instanceof HubError) {
    if (error.status === 0) {
      return `Can't reach the hub at ${window.location.host}. Check that \`tether hub\` is running and that this device can reach it.`;
    }
    if (error.status === 401 || error.status === 403) {
      return "This token wasn't accepted. It may be mistyped, incomplete or revoked. Create a new one with `tether token create`.";
    }
    if (error.status === 429) return 'Too many sign-in attempts. Wait a minute, then try again.';
    if (error.status === 400) return "That doesn't look like a tether token. Paste the whole token, starting with tth_.";
    return `The hub answered with an error: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function Inline({ text }: { text: string }) {
  // `code` spans in error sentences become <code>; everything else stays text.
  return (
    <>
      {text.split(/(`[^`]+`)/).map((part, i) =>
        part.startsWith('`') && part.endsWith('`') ? <code key={i}>{part.slice(1, -1)}</code> : part,
      )}
    </>
  );
}

export function LoginForm({ onLoggedIn }: { onLoggedIn: () => void }) {
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [fromLink, setFromLink] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A link's failure is not the field's fault: the (empty) field is not marked invalid for it.
  const [linkFailed, setLinkFailed] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const started = useRef(false);

  /** `link`: what a QR link's fragment said it carries (a pasted value is told by its prefix). */
  async function submit(value: string, link?: FragmentCredential['kind']) {
    const trimmed = value.trim();
    if (!trimmed) {
      setError('Paste a pairing code (from `tether pair`) or an access token.');
      setLinkFailed(false);
      inputRef.current?.focus();
      return;
    }
    const pairing = link ? link === 'pair' : trimmed.startsWith(PAIRING_CODE_PREFIX);
    if (!pairing && !trimmed.startsWith(ACCESS_TOKEN_PREFIX)) {
      setError(`A pairing code starts with ${PAIRING_CODE_PREFIX} and an access token with ${ACCESS_TOKEN_PREFIX}. Paste the whole of it.`);
      setLinkFailed(false);
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    setLinkFailed(false);
    try {
      await (pairing ? loginWithPairCode(trimmed) : loginWithToken(trimmed));
      onLoggedIn();
    } catch (err) {
      setError(pairing ? describePairError(err) : describeLoginError(err));
      setLinkFailed(link !== undefined);
      setBusy(false);
      setFromLink(false);
    }
  }

  // The QR link: sign in at once. (A ref guard: React's dev double-effect must not log in twice.)
  // A spent code is not put in the field: it can never work again.
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fromFragment = takeFragmentCredential();
    if (fromFragment) {
      if (fromFragment.kind === 'token') setToken(fromFragment.value);
      setFromLink(true);
      void submit(fromFragment.value, fromFragment.kind);
    }
  }, []);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(token);
  }

  return (
    <main className="login">
      <div className="login-card">
        <div className="login-brand">
          <TetherMark size={44} />
          <span className="login-wordmark">tether</span>
        </div>
        <h1 className="login-title">{fromLink && busy ? 'Signing you in…' : 'Connect to your hub'}</h1>
        <p className="login-lead">
          Scan the QR code that <code>tether pair</code> prints on your computer: it signs this device in. Or paste an
          access token below.
        </p>
        <form className="login-form" onSubmit={onSubmit} noValidate>
          <label className="field-label" htmlFor="login-token">
            Access token or pairing code
          </label>
          <input
            ref={inputRef}
            id="login-token"
            className="field-input field-mono"
            type="text"
            inputMode="text"
            value={token}
            onChange={(event) => setToken(event.target.value)}
            placeholder="tth_… or tpc_…"
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            aria-invalid={error && !linkFailed ? true : undefined}
            aria-describedby={error ? 'login-error' : undefined}
            disabled={busy}
          />
          {error ? (
            <p className="login-error" id="login-error" role="alert">
              <Inline text={error} />
            </p>
          ) : null}
          <button type="submit" className="button button-primary button-block" disabled={busy}>
            {busy ? <Spinner size={18} /> : null}
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <p className="login-foot">
          Hub <span className="login-host">{window.location.host}</span>
        </p>
      </div>
    </main>
  );
}
