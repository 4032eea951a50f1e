// answered-questions.tsx: an AskUserQuestion tool card once answered: each question with every
// option claude offered, the chosen ones marked, and words that are none of them set apart as the
// person's own. Answers come from the tool result's structured `answers` (question text → answer).
import { readQuestionAnswer } from '@tether/shared/wire';
import { asRecord, asText } from '../../lib/ui/tool-input.tsx';
import './chat.css';

export function AnsweredQuestions({ input, answers }: { input: unknown; answers: ReadonlyMap<string, string> }) {
  const questions = (Array.isArray(asRecord(input).questions) ? (asRecord(input).questions as unknown[]) : []).map(asRecord);
  return (
    <div className="answered-questions">
      {questions.map((q, index) => {
        const text = asText(q.question);
        const options = (Array.isArray(q.options) ? q.options : []).map(asRecord).map((o) => ({ label: asText(o.label), description: asText(o.description) }));
        const answer = answers.get(text);
        const read = answer === undefined ? { chosen: [], other: null } : readQuestionAnswer({ options }, answer);
        return (
          <section key={index} className="answered-question" aria-label={text}>
            <p className="answered-question-text">
              {asText(q.header) ? <span className="question-header">{asText(q.header)}</span> : null}
              {text}
            </p>
            <ul className="answered-options">
              {options.map((option) => {
                const chosen = read.chosen.includes(option.label);
                return (
                  <li key={option.label} className={chosen ? 'answered-option answered-option-chosen' : 'answered-option'}>
                    <span className="answered-mark" aria-hidden="true">
                      {chosen ? '✓' : ''}
                    </span>
                    <span>
                      {option.label}
                      {chosen ? <span className="sr-only"> (chosen)</span> : null}
                    </span>
                  </li>
                );
              })}
            </ul>
            {read.other ? (
              <p className="answered-other">
                <span className="answered-other-label">In their own words</span>
                {read.other}
              </p>
            ) : null}
            {answer === undefined ? <p className="tool-note">Not answered.</p> : null}
          </section>
        );
      })}
    </div>
  );
}
