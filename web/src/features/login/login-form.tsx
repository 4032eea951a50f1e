// login-form.tsx: the sign-in screen. A token arrives pasted, or from the QR link that
// `tether hub` prints (`/#token=tth_…`, already stripped from the address bar by lib/hub.ts);
// either way it is exchanged once for a web session and never stored itself.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ACCESS_TOKEN_PREFIX, HubError, loginWithToken, takeFragmentToken } from '../../lib/hub.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { TetherMark } from '../../lib/ui/icons.tsx';

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
  const inputRef = useRef<HTMLInputElement>(null);
  const started = useRef(false);

  async function submit(value: string) {
    const trimmed = value.trim();
    if (!trimmed) {
      setError('Paste the access token that `tether hub` printed.');
      inputRef.current?.focus();
      return;
    }
    if (!trimmed.startsWith(ACCESS_TOKEN_PREFIX)) {
      setError(`A tether token starts with ${ACCESS_TOKEN_PREFIX}. Paste the whole token.`);
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await loginWithToken(trimmed);
      onLoggedIn();
    } catch (err) {
      setError(describeLoginError(err));
      setBusy(false);
      setFromLink(false);
    }
  }

  // The QR link: sign in at once. (A ref guard: React's dev double-effect must not log in twice.)
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const linkToken = takeFragmentToken();
    if (linkToken) {
      setToken(linkToken);
      setFromLink(true);
      void submit(linkToken);
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
          Scan the QR code that <code>tether hub</code> prints, or paste its access token below.
        </p>
        <form className="login-form" onSubmit={onSubmit} noValidate>
          <label className="field-label" htmlFor="login-token">
            Access token
          </label>
          <input
            ref={inputRef}
            id="login-token"
            className="field-input field-mono"
            type="text"
            inputMode="text"
            value={token}
            onChange={(event) => setToken(event.target.value)}
            placeholder="tth_…"
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
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
