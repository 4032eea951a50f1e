// trust-folder-form.tsx: claude's "Do you trust the files in this folder?" for a PTY session started
// from the phone in a folder claude has never trusted. The runner reads the dialog from its screen
// model and asks here (`toolName: TrustFolder`, `toolInput: {cwd, screen}`).
//   "Trust folder" ─allow─► the runner presses Enter on "1. Yes"; claude records the trust itself.
//   "Don't trust"  ─deny──► the runner presses Esc; claude exits and the session fails.
import type { PendingRequest } from '@tether/shared';
import { asText } from '../../lib/ui/tool-input.tsx';
import type { SubmitAnswer } from './submit-answer.ts';
import { ActionButton } from './action-button.tsx';
import { useAgentName } from '../../lib/agent-name.ts';

export const TRUST_FOLDER_TOOL = 'TrustFolder';

export function TrustFolderForm({ request, busy, submit }: { request: PendingRequest; busy: string | null; submit: SubmitAnswer }) {
  const agent = useAgentName();
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
          {agent} will read, edit and run files in this folder. Trust it only if you know what it holds: files
          there can steer what {agent} does.
        </p>
        <p className="approval-hint">If you don't trust it, {agent} exits and this session ends.</p>
        {screen ? (
          <details className="trust-screen">
            <summary>What {agent} shows</summary>
            <pre className="tool-pre">{screen}</pre>
          </details>
        ) : null}
      </div>
      <div className="approval-actions">
        <ActionButton id="deny" busy={busy} onClick={() => void submit({ decision: 'deny' }, 'deny')}>
          Don't trust
        </ActionButton>
        <ActionButton id="allow" busy={busy} tone="primary" onClick={() => void submit({ decision: 'allow' }, 'allow')}>
          Trust folder
        </ActionButton>
      </div>
    </>
  );
}
