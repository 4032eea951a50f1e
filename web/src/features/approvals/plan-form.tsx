// plan-form.tsx: claude's plan (ExitPlanMode) rendered as markdown, with claude's own three choices:
// approve and let it edit files without asking (acceptEdits), approve and keep asking before edits
// (default), or keep planning with feedback that claude reads as the reason.
import { useState } from 'react';
import type { PendingRequest } from '@tether/shared';
import { Markdown } from '../../lib/ui/markdown.tsx';
import { asText } from '../../lib/ui/tool-input.tsx';
import type { SubmitAnswer } from './submit-answer.ts';
import { ActionButton } from './action-button.tsx';
import { AnswerText } from './answer-text.tsx';
import { useAgentName } from '../../lib/agent-name.ts';

export function PlanForm({ request, busy, submit }: { request: PendingRequest; busy: string | null; submit: SubmitAnswer }) {
  const agent = useAgentName();
  const [feedback, setFeedback] = useState<string | null>(null);
  const plan = asText(request.toolInput.plan);
  return (
    <>
      <div className="approval-body">
        <Markdown text={plan || '(empty plan)'} className="plan" />
      </div>
      {feedback !== null ? (
        <div className="approval-options">
          <AnswerText id={`feedback-${request.id}`} label={`What should ${agent} change?`} value={feedback} onChange={setFeedback} rows={3} />
        </div>
      ) : null}
      <div className="approval-actions">
        <ActionButton
          id="deny"
          busy={busy}
          onClick={() => {
            if (feedback === null) return setFeedback('');
            void submit(feedback.trim() ? { decision: 'deny', reason: feedback.trim() } : { decision: 'deny' }, 'deny');
          }}
        >
          {feedback === null ? 'Keep planning' : 'Send feedback'}
        </ActionButton>
        <ActionButton id="allow-ask" busy={busy} onClick={() => void submit({ decision: 'allow', planMode: 'default' }, 'allow-ask')}>
          Approve, ask before edits
        </ActionButton>
      </div>
      <div className="approval-actions">
        <ActionButton id="allow-edits" busy={busy} tone="primary" onClick={() => void submit({ decision: 'allow', planMode: 'acceptEdits' }, 'allow-edits')}>
          Approve, accept edits
        </ActionButton>
      </div>
    </>
  );
}
