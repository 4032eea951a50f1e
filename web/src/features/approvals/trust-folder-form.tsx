// trust-folder-form.tsx: claude's "Do you trust the files in this folder?" for a PTY session started
// from the phone in a folder claude has never trusted. The runner reads the dialog from its screen
// model and asks here (`toolName: TrustFolder`, `toolInput: {cwd, screen}`).
//   "Trust folder" ─allow─► the runner presses Enter on "1. Yes"; claude records the trust itself.
//   "Don't trust"  ─deny──► the runner presses Esc; claude exits and the session fails.
import type { PendingRequest } from '@tether/shared';
import { Spinner } from '../../lib/ui/badge.tsx';
import { asText } from '../../lib/ui/tool-input.tsx';
import type { SubmitAnswer } from './approval-sheet.tsx';

export const TRUST_FOLDER_TOOL = 'TrustFolder';

export function TrustFolderForm({ request, busy, submit }: { request: PendingRequest; busy: string | null; submit: SubmitAnswer }) {
  const cwd = asText(request.toolInput.cwd);
  const screen = asText(request.toolInput.screen).trim();
  return (
    <>
      <div className="approval-body trust-body">
        <p className="trust-path">
          <span className="sr-only">Folder: </span>
          {cwd || 'this folder'}
        </p>
        <p className="approval-hint">
          Claude will read, edit and run files in this folder. Trust it only if you know what it holds: files
          there can steer what Claude does.
        </p>
        <p className="approval-hint">If you don't trust it, Claude exits and this session ends.</p>
        {screen ? (
          <details className="trust-screen">
            <summary>What Claude shows</summary>
            <pre className="tool-pre">{screen}</pre>
          </details>
        ) : null}
      </div>
      <div className="approval-actions">
        <button type="button" className="button" onClick={() => void submit({ decision: 'deny' }, 'deny')} disabled={busy !== null}>
          {busy === 'deny' ? <Spinner size={16} /> : null}
          Don't trust
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={() => void submit({ decision: 'allow' }, 'allow')}
          disabled={busy !== null}
        >
          {busy === 'allow' ? <Spinner size={16} /> : null}
          Trust folder
        </button>
      </div>
    </>
  );
}
