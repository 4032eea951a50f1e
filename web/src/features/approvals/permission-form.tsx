// permission-form.tsx: Allow / Deny for one tool call, with the finer choices a phone user needs:
// allow for the rest of the session (for Bash: this exact command, or a command prefix), edit a Bash
// command before allowing it (claude runs the edited one), and deny with a reason claude will read.
import { useState } from 'react';
import type { Answer, PendingRequest } from '@tether/shared';
import { suggestBashPrefix } from '../../lib/format.ts';
import { asText, ToolInputView } from '../../lib/ui/tool-input.tsx';
import type { SubmitAnswer } from './submit-answer.ts';
import { ActionButton } from './action-button.tsx';
import { AnswerText } from './answer-text.tsx';
import { useAgentName } from '../../lib/agent-name.ts';

type Mode = 'main' | 'session' | 'deny' | 'edit';

/** The one field of a tool's input a person may rewrite before allowing: the agent then runs what
 *  was allowed (a Bash command, the text a Write puts in a file, an Edit's new text). */
const EDITABLE: Record<string, { field: string; label: (agent: string) => string; button: string }> = {
  Bash: { field: 'command', label: (agent) => `Command ${agent} will run`, button: 'Edit command…' },
  Write: { field: 'content', label: (agent) => `What ${agent} will write`, button: 'Edit content…' },
  Edit: { field: 'new_string', label: (agent) => `The new text ${agent} will put in`, button: 'Edit new text…' },
};

/** The rule "Allow for this session" sends: the tool, or for Bash the exact command or a prefix. */
function sessionRuleFor(o: { isBash: boolean; scope: 'exact' | 'prefix' | 'tool'; prefix: string }): NonNullable<Answer['sessionRule']> {
  if (!o.isBash || o.scope === 'tool') return { kind: 'tool' };
  if (o.scope === 'exact') return { kind: 'bash-exact' };
  return { kind: 'bash-prefix', prefix: `${o.prefix.trim()}:*` };
}

/** `relays`: whether the agent takes an edited input and "allow for this session" rules (its
 *  capabilities: claude does, Codex's hook does not). */
export function PermissionForm({ request, busy, submit, relays = { editedInput: true, sessionRules: true } }: { request: PendingRequest; busy: string | null; submit: SubmitAnswer; relays?: { editedInput: boolean; sessionRules: boolean } }) {
  const agent = useAgentName();
  const [mode, setMode] = useState<Mode>('main');
  const [reason, setReason] = useState('');
  const isBash = request.toolName === 'Bash';
  const command = asText(request.toolInput.command);
  const editable = EDITABLE[request.toolName];
  const original = editable ? asText(request.toolInput[editable.field]) : '';
  const [scope, setScope] = useState<'exact' | 'prefix' | 'tool'>(isBash ? 'exact' : 'tool');
  const [prefix, setPrefix] = useState(() => suggestBashPrefix(command));
  const [edited, setEdited] = useState(original);

  function allowEdited() {
    // A command is compared and sent trimmed; a file's text exactly as typed (its whitespace is its own).
    const next = isBash ? edited.trim() : edited;
    const unchanged = next === (isBash ? original.trim() : original);
    void submit(unchanged || !editable ? { decision: 'allow' } : { decision: 'allow', updatedInput: { [editable.field]: next } }, 'allow-edited');
  }

  const allowForSession = () => void submit({ decision: 'allow', sessionRule: sessionRuleFor({ isBash, scope, prefix }) }, 'allow-session');

  const back = (
    <button type="button" className="button" onClick={() => setMode('main')} disabled={busy !== null}>
      Back
    </button>
  );

  return (
    <>
      <div className="approval-body" tabIndex={0} role="region" aria-label="What is asked">
        <ToolInputView name={request.toolName} input={request.toolInput} />
      </div>

      {mode === 'session' ? (
        <fieldset className="approval-options">
          <legend>Allow for the rest of this session</legend>
          {isBash ? (
            <>
              <label className="choice">
                <input type="radio" name="scope" checked={scope === 'exact'} onChange={() => setScope('exact')} />
                <span>This exact command</span>
              </label>
              <label className="choice">
                <input type="radio" name="scope" checked={scope === 'prefix'} onChange={() => setScope('prefix')} />
                <span>Commands starting with</span>
              </label>
              {scope === 'prefix' ? (
                <input
                  className="field-input field-mono choice-field"
                  value={prefix}
                  onChange={(event) => setPrefix(event.target.value)}
                  aria-label="Command prefix"
                  autoCapitalize="off"
                  autoCorrect="off"
                  spellCheck={false}
                />
              ) : null}
              <label className="choice">
                <input type="radio" name="scope" checked={scope === 'tool'} onChange={() => setScope('tool')} />
                <span>Every Bash command</span>
              </label>
            </>
          ) : (
            <p className="approval-hint">{agent} won't ask again for {request.toolName} in this session.</p>
          )}
          <div className="approval-actions">
            {back}
            <ActionButton id="allow-session" busy={busy} tone="primary" onClick={allowForSession} disabled={scope === 'prefix' && !prefix.trim()}>
              Allow
            </ActionButton>
          </div>
        </fieldset>
      ) : mode === 'edit' ? (
        <div className="approval-options">
          <AnswerText
            id={`edited-${request.id}`}
            label={editable?.label(agent) ?? ''}
            value={edited}
            onChange={setEdited}
            rows={Math.min(isBash ? 8 : 14, Math.max(3, edited.split('\n').length + 1))}
            verbatim
          />
          <div className="approval-actions">
            {back}
            <ActionButton id="allow-edited" busy={busy} tone="primary" onClick={allowEdited} disabled={isBash && !edited.trim()}>
              Allow edited
            </ActionButton>
          </div>
        </div>
      ) : mode === 'deny' ? (
        <div className="approval-options">
          <AnswerText id={`reason-${request.id}`} label={`Tell ${agent} why (optional)`} value={reason} onChange={setReason} placeholder="e.g. don't touch the lockfile, use the existing script" rows={3} />
          <div className="approval-actions">
            {back}
            <ActionButton
              id="deny"
              busy={busy}
              tone="danger"
              onClick={() => void submit(reason.trim() ? { decision: 'deny', reason: reason.trim() } : { decision: 'deny' }, 'deny')}
            >
              Deny
            </ActionButton>
          </div>
        </div>
      ) : (
        <>
          <div className="approval-actions">
            <ActionButton id="deny" busy={busy} onClick={() => void submit({ decision: 'deny' }, 'deny')}>
              Deny
            </ActionButton>
            <ActionButton id="allow" busy={busy} tone="primary" onClick={() => void submit({ decision: 'allow' }, 'allow')}>
              Allow
            </ActionButton>
          </div>
          <div className="approval-more">
            {relays.sessionRules ? (
              <button type="button" className="link-button" onClick={() => setMode('session')} disabled={busy !== null}>
                Allow for session…
              </button>
            ) : null}
            {relays.editedInput && editable && (original || !isBash) ? (
              <button type="button" className="link-button" onClick={() => setMode('edit')} disabled={busy !== null}>
                {editable.button}
              </button>
            ) : null}
            <button type="button" className="link-button" onClick={() => setMode('deny')} disabled={busy !== null}>
              Deny with reason…
            </button>
          </div>
        </>
      )}
    </>
  );
}
