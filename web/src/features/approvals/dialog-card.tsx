// dialog-card.tsx: a choice claude draws on its screen that no hook reports ("Switch model?", "New
// MCP server found", folder trust, the bypass warning…), read by the runner's screen model and asked
// here as a `dialog` request (shared/src/dialog.ts). One button per option, in claude's order; a tap
// sends `{decision: allow, choice: key}` and the runner presses that option's key if the same dialog
// is still on screen. "Open terminal" shows the dialog itself, for anything the card cannot say.
import { Link } from '@tanstack/react-router';
import { DialogInputSchema, type DialogInput, type PendingRequest } from '@tether/shared';
import type { SubmitAnswer } from './submit-answer.ts';
import { ActionButton } from './action-button.tsx';
import { OptionLabel } from './option-label.tsx';
import { useAgentName } from '../../lib/agent-name.ts';
import './approvals.css';

export function dialogInput(request: PendingRequest): DialogInput | null {
  const parsed = DialogInputSchema.safeParse(request.toolInput);
  return parsed.success ? parsed.data : null;
}

/** The dialog's words between its title and its options, as paragraphs (claude wraps them to the
 *  terminal's width; the phone wraps them to its own). Key hints under the options are the desk's. */
export function dialogParagraphs(input: DialogInput): string[] {
  const optionRow = (line: string) => {
    const text = line.trim();
    return input.options.some((o) => text === o.label || text === `${o.key}. ${o.label}`);
  };
  const first = input.text.findIndex(optionRow);
  const body = input.text.slice(1, first === -1 ? input.text.length : first);
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const line of body) {
    if (line.trim() === '') {
      if (current.length > 0) paragraphs.push(current.join(' '));
      current = [];
    } else current.push(line.trim());
  }
  if (current.length > 0) paragraphs.push(current.join(' '));
  return paragraphs;
}

export function DialogCard({ request, busy, submit }: { request: PendingRequest; busy: string | null; submit: SubmitAnswer }) {
  const agent = useAgentName();
  const input = dialogInput(request);
  if (!input) return <p className="approval-hint">This dialog could not be read. Open the terminal to answer it.</p>;
  const paragraphs = dialogParagraphs(input);
  return (
    <>
      <div className="approval-body dialog-body">
        {paragraphs.map((text, i) => (
          <p key={i} className="dialog-text">
            {text}
          </p>
        ))}
        <details className="trust-screen">
          <summary>What {agent} shows</summary>
          <pre className="tool-pre">{input.text.join('\n')}</pre>
        </details>
      </div>
      <div className="dialog-options" role="group" aria-label={`${agent}'s options`}>
        {input.options.map((option) => (
          <ActionButton key={option.key} id={`choice-${option.key}`} busy={busy} onClick={() => void submit({ decision: 'allow', choice: option.key }, `choice-${option.key}`)}>
            <OptionLabel label={option.label} detail={option.detail} />
          </ActionButton>
        ))}
        <Link to="/sessions/$sessionId/terminal" params={{ sessionId: request.sessionId }} className="button dialog-terminal">
          Open terminal
        </Link>
      </div>
    </>
  );
}
