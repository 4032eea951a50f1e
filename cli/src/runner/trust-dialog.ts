// trust-dialog.ts: claude's first-time "do you trust this folder?" dialog, asked on the hub instead
// of silently blocking a session nobody is watching. Read from the screen model; answered by
// pressing the key claude expects. claude's own config is never edited (claude records the trust
// itself when the user accepts).
//
//   screen "Yes, I trust this folder" ─► approval:request {kind: permission, toolName: TrustFolder,
//   toolInput: {cwd, screen}} ─► hub/phone ─► approval:answered allow → Enter on "1. Yes" | deny → Esc
//   dialog gone (answered at the desk) ─► approval:withdraw
//
// Invariant: one request per dialog on screen; a key is pressed at most once per answer.
import type { Answer } from '@tether/shared';
import type { HubLink } from '../hub-link/link.ts';

export const TRUST_TOOL_NAME = 'TrustFolder';
export const TRUST_TEXT = 'Yes, I trust this folder';
/** Retry while the hub link is not registered yet (the dialog comes up ~1 s after spawn). */
const RETRY_MS = 500;

export type TrustDialog = {
  /** Call with the screen text whenever it changed. */
  check(screenText: string): void;
  /** True when the answer was for the trust request (and was handled). */
  answered(options: { requestId: string; answer: Answer }): boolean;
  stop(): void;
};

export function createTrustDialog(options: {
  /** Getters: a `--continue` runner learns its session (and opens its link) only at SessionStart. */
  sessionId: () => string;
  cwd: string;
  link: () => HubLink | null;
  write: (data: string) => void;
  log: (line: string) => void;
}): TrustDialog {
  let requestId: string | null = null;
  let onScreen = false;
  let lastScreen = '';
  let retry: ReturnType<typeof setTimeout> | null = null;

  const ask = async () => {
    retry = null;
    const link = options.link();
    if (!link || !onScreen || requestId) return;
    const id = crypto.randomUUID();
    const excerpt = lastScreen.split('\n').filter((l) => l.trim() !== '').slice(-14).join('\n');
    const ack = await link.request('approval:request', {
      id,
      sessionId: options.sessionId(),
      kind: 'permission',
      toolName: TRUST_TOOL_NAME,
      toolInput: { cwd: options.cwd, screen: excerpt },
      toolUseId: null,
      createdAt: Date.now(),
    });
    if (ack?.ok) {
      requestId = id;
      options.log(`trust dialog for ${options.cwd}: asked on the hub (${id})`);
      if (!onScreen) void link.request('approval:withdraw', { sessionId: options.sessionId(), requestId: id, reason: 'answered at the desk' });
    } else if (onScreen) {
      retry = setTimeout(() => void ask(), RETRY_MS);
    }
  };

  return {
    check: (screenText) => {
      lastScreen = screenText;
      const visible = screenText.includes(TRUST_TEXT);
      if (visible && !onScreen) {
        onScreen = true;
        void ask();
      } else if (!visible && onScreen) {
        onScreen = false;
        const link = options.link();
        if (requestId && link) {
          void link.request('approval:withdraw', { sessionId: options.sessionId(), requestId, reason: 'the dialog was answered at the desk' });
        }
        requestId = null;
      }
    },
    answered: ({ requestId: id, answer }) => {
      if (!requestId || id !== requestId) return false;
      requestId = null;
      if (!onScreen) return true;
      // No: Esc exits (claude's own "No"). Yes: see trustKeys.
      options.write(answer.decision === 'allow' ? trustKeys(lastScreen) : '\x1b');
      options.log(`trust dialog for ${options.cwd}: ${answer.decision} from the hub`);
      return true;
    },
    stop: () => {
      if (retry) clearTimeout(retry);
    },
  };
}

/** The keys that pick "Yes, I trust this folder" on `screen`: Enter when the cursor (❯) is on it;
 *  its digit where options are numbered (2.1.197: "1. Yes, …", a digit selects at once); otherwise
 *  arrow keys from the cursor's option to it, then Enter (2.1.330: unnumbered, cursor on "No, exit"). */
export function trustKeys(screen: string): string {
  const lines = screen.split('\n');
  const yes = lines.findIndex((l) => l.includes(TRUST_TEXT));
  if (yes === -1) return '\r';
  if (lines[yes]!.includes('❯')) return '\r';
  const digit = /(\d)\.\s+Yes, I trust/.exec(lines[yes]!)?.[1];
  if (digit) return digit;
  const cursor = lines.findIndex((l) => /^\s*❯\s/.test(l));
  if (cursor === -1) return '\r';
  const steps = yes - cursor;
  return (steps > 0 ? '\x1b[B' : '\x1b[A').repeat(Math.abs(steps)) + '\r';
}
