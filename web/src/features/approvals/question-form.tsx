// question-form.tsx: claude's AskUserQuestion as a form: each question with its header, its options
// (one choice or several) with their descriptions, an "Other" free-text answer, and one Submit.
// One question with one choice is answered by one tap: each option is a button (OneTapQuestion).
// The answer map is built by shared `buildQuestionAnswers`, exactly as claude's own picker would.
import { useMemo, useState } from 'react';
import { AskUserQuestionInputSchema, buildQuestionAnswers, type AskUserQuestionInput, type PendingRequest } from '@tether/shared';
import { Spinner } from '../../lib/ui/badge.tsx';
import type { SubmitAnswer } from './submit-answer.ts';
import { ActionButton } from './action-button.tsx';
import { OptionLabel } from './option-label.tsx';
import { UnreadableRequest } from './unreadable-request.tsx';

type Pick = { labels: string[]; other: string };

export function QuestionForm({ request, busy, submit }: { request: PendingRequest; busy: string | null; submit: SubmitAnswer }) {
  const parsed = useMemo(() => AskUserQuestionInputSchema.safeParse(request.toolInput), [request.toolInput]);
  const questions = parsed.success ? parsed.data.questions : [];
  const [picks, setPicks] = useState<Pick[]>(() => questions.map(() => ({ labels: [], other: '' })));

  if (!parsed.success) {
    // Not the shape claude documents: show what came and let the user decline rather than guess.
    return (
      <UnreadableRequest input={request.toolInput} label="Input">
        <button type="button" className="button" onClick={() => void submit({ decision: 'deny', reason: 'unreadable question' }, 'deny')}>
          Decline
        </button>
      </UnreadableRequest>
    );
  }

  const only = questions.length === 1 && !questions[0]!.multiSelect ? questions[0]! : null;
  if (only) return <OneTapQuestion question={only} requestId={request.id} busy={busy} submit={submit} />;

  const complete = picks.every((pick) => pick.labels.length > 0 || pick.other.trim().length > 0);

  function toggle(index: number, label: string, multi: boolean) {
    setPicks((current) =>
      current.map((pick, i) => {
        if (i !== index) return pick;
        if (!multi) return { labels: [label], other: '' };
        const has = pick.labels.includes(label);
        return { ...pick, labels: has ? pick.labels.filter((l) => l !== label) : [...pick.labels, label] };
      }),
    );
  }

  function setOther(index: number, other: string, multi: boolean) {
    setPicks((current) =>
      current.map((pick, i) => (i !== index ? pick : multi ? { ...pick, other } : { labels: other ? [] : pick.labels, other })),
    );
  }

  function onSubmit() {
    let answers: Record<string, string>;
    try {
      answers = buildQuestionAnswers({ questions, picks });
    } catch {
      return; // the Submit button stays disabled until every question has an answer
    }
    void submit({ decision: 'allow', answers }, 'submit');
  }

  return (
    <form
      className="question-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <div className="approval-body">
        {questions.map((question, index) => {
          const pick = picks[index] ?? { labels: [], other: '' };
          const multi = question.multiSelect;
          const name = `q-${request.id}-${index}`;
          return (
            <fieldset key={name} className="question">
              <legend className="question-legend">
                {question.header ? <span className="question-header">{question.header}</span> : null}
                <span className="question-text">{question.question}</span>
                {multi ? <span className="question-multi">Choose any</span> : null}
              </legend>
              {question.options.map((option) => (
                <label key={option.label} className="choice choice-option">
                  <input
                    type={multi ? 'checkbox' : 'radio'}
                    name={name}
                    checked={pick.labels.includes(option.label)}
                    onChange={() => toggle(index, option.label, multi)}
                  />
                  <span className="choice-text">
                    <span className="choice-label">{option.label}</span>
                    {option.description ? <span className="choice-description">{option.description}</span> : null}
                  </span>
                </label>
              ))}
              <input
                className="field-input choice-field"
                value={pick.other}
                onChange={(event) => setOther(index, event.target.value, multi)}
                placeholder="Other…"
                aria-label={`Other answer: ${question.question}`}
              />
            </fieldset>
          );
        })}
      </div>
      <div className="approval-actions">
        <Decline busy={busy} submit={submit} />
        <button type="submit" className="button button-primary" disabled={busy !== null || !complete}>
          {busy === 'submit' ? <Spinner size={16} /> : null}
          Submit
        </button>
      </div>
    </form>
  );
}

/** Declines every question at once: the agent reads that the user chose not to answer. */
function Decline({ busy, submit }: { busy: string | null; submit: SubmitAnswer }) {
  return (
    <ActionButton id="deny" busy={busy} onClick={() => void submit({ decision: 'deny', reason: 'The user declined to answer.' }, 'deny')}>
      Decline
    </ActionButton>
  );
}

type Question = AskUserQuestionInput['questions'][number];

/** One single-choice question: a tap on an option answers it; "Other" takes a typed answer. */
function OneTapQuestion({ question, requestId, busy, submit }: { question: Question; requestId: string; busy: string | null; submit: SubmitAnswer }) {
  const [other, setOther] = useState('');
  const answer = (pick: Pick, id: string) => void submit({ decision: 'allow', answers: buildQuestionAnswers({ questions: [question], picks: [pick] }) }, id);
  return (
    <>
      <div className="approval-body">
        <p className="question-legend">
          {question.header ? <span className="question-header">{question.header}</span> : null}
          <span className="question-text" id={`q-${requestId}`}>
            {question.question}
          </span>
        </p>
        <div className="dialog-options" role="group" aria-labelledby={`q-${requestId}`}>
          {question.options.map((option, index) => (
            <ActionButton key={option.label} id={`option-${index}`} busy={busy} onClick={() => answer({ labels: [option.label], other: '' }, `option-${index}`)}>
              <OptionLabel label={option.label} detail={option.description} />
            </ActionButton>
          ))}
        </div>
        <form
          className="question-other"
          onSubmit={(event) => {
            event.preventDefault();
            if (other.trim()) answer({ labels: [], other }, 'other');
          }}
        >
          <input
            className="field-input choice-field"
            value={other}
            onChange={(event) => setOther(event.target.value)}
            placeholder="Other…"
            aria-label={`Other answer: ${question.question}`}
          />
          <button type="submit" className="button" disabled={busy !== null || !other.trim()}>
            {busy === 'other' ? <Spinner size={16} /> : null}
            Send
          </button>
        </form>
      </div>
      <div className="approval-actions">
        <Decline busy={busy} submit={submit} />
      </div>
    </>
  );
}
