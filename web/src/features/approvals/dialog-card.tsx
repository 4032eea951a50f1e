// dialog-card.tsx: a choice claude draws on its screen that no hook reports ("Switch model?", "New
// MCP server found", folder trust, the bypass warning…), read by the runner's screen model and asked
// here as a `dialog` request (shared/src/dialog.ts). One button per option, in claude's order; a tap
// sends `{decision: allow, choice: key}` and the runner presses that option's key if the same dialog
// is still on screen. "Open terminal" shows the dialog itself, for anything the card cannot say.
// A dialog with a text field (Gemini's "Enter a custom value", its text questions) takes the
// person's words here: `{decision: allow, choice?: the field's key, text}`, typed by the runner only
// while that question is still on screen; if it was not, the dialog comes back with a notice why.
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { cleanFreeText, DialogInputSchema, type DialogInput, type PendingRequest } from '@tether/shared';
import { Spinner } from '../../lib/ui/badge.tsx';
import type { SubmitAnswer } from './submit-answer.ts';
import { ActionButton } from './action-button.tsx';
import { OptionLabel } from './option-label.tsx';
import { useAgentName } from '../../lib/agent-name.ts';
import './approvals.css';

export function dialogInput(request: PendingRequest): DialogInput | null {
  const parsed = DialogInputSchema.safeParse(request.toolInput);
  return parsed.success ? parsed.data : null;
}

/** The dialog's words between its title and its question (its headline, shown as the sheet's
 *  title) or its options, as paragraphs (the agent wraps them to the terminal's width; the phone
 *  wraps them to its own). Key hints under the options are the desk's; a box the agent draws inside
 *  the dialog (the command, a file's size) is shown as what it is about. */
export function dialogParagraphs(input: DialogInput): string[] {
  const optionRow = (line: string) => {
    const text = line.trim();
    const numbered = /^(\d)\.\s+(.*)$/.exec(text);
    return input.options.some((o) => text === o.label || (numbered !== null && numbered[1] === o.key && numbered[2] === o.label));
  };
  const first = input.text.findIndex(optionRow);
  const body = input.text.slice(1, first === -1 ? input.text.length : first);
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const line of body) {
    if (line.trim() === '' || /^[\u2500-\u257f]/.test(line.trim())) {
      if (current.length > 0) paragraphs.push(current.join(' '));
      current = [];
    } else current.push(line.trim());
  }
  if (current.length > 0) paragraphs.push(current.join(' '));
  const headline = input.headline ? paragraphs.indexOf(input.headline) : -1;
  return headline === -1 ? paragraphs : paragraphs.slice(0, headline);
}

const ABOUT_LABEL = { file: 'File', command: 'Command' } as const;

export function DialogCard({ request, busy, submit }: { request: PendingRequest; busy: string | null; submit: SubmitAnswer }) {
  const agent = useAgentName();
  const input = dialogInput(request);
  if (!input) return <p className="approval-hint">This dialog could not be read. Open the terminal to answer it.</p>;
  const paragraphs = dialogParagraphs(input);
  const field = input.freeText;
  if (field?.notes) return <NotesCard request={request} input={input} paragraphs={paragraphs} busy={busy} submit={submit} />;
  return (
    <>
      <DialogWords input={input} paragraphs={paragraphs} agent={agent} />
      <div className="dialog-options" role="group" aria-label={`${agent}'s options`}>
        {input.options
          .filter((option) => option.key !== field?.key)
          .map((option) => (
            <ActionButton key={option.key} id={`choice-${option.key}`} busy={busy} onClick={() => void submit({ decision: 'allow', choice: option.key }, `choice-${option.key}`)}>
              <OptionLabel label={option.label} detail={option.detail} />
            </ActionButton>
          ))}
        {field ? <FreeTextField requestId={request.id} field={field} label={input.options.length > 0 ? 'Or type your own answer' : (input.headline ?? input.title)} busy={busy} submit={submit} /> : null}
        <Link to="/sessions/$sessionId/terminal" params={{ sessionId: request.sessionId }} className="button dialog-terminal">
          Open terminal
        </Link>
      </div>
    </>
  );
}

/** The dialog's text field, on the phone: the words are counted as the runner will type them
 *  (control characters dropped), against the agent's limit. */
function FreeTextField(o: { requestId: string; field: NonNullable<DialogInput['freeText']>; label: string; busy: string | null; submit: SubmitAnswer }) {
  const [text, setText] = useState('');
  const typed = cleanFreeText(text).length;
  const over = typed > o.field.maxChars;
  const id = `free-text-${o.requestId}`;
  return (
    <form
      className="dialog-free-text"
      onSubmit={(event) => {
        event.preventDefault();
        if (typed > 0 && !over) void o.submit({ decision: 'allow', ...(o.field.key ? { choice: o.field.key } : {}), text }, 'free-text');
      }}
    >
      <label className="field-label" htmlFor={id}>
        {o.label}
      </label>
      <div className="question-other">
        <input
          id={id}
          className="field-input choice-field"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder={o.field.placeholder ?? 'Your answer…'}
          aria-describedby={`${id}-count`}
          aria-invalid={over}
        />
        <button type="submit" className="button button-primary" disabled={o.busy !== null || typed === 0 || over}>
          {o.busy === 'free-text' ? <Spinner size={16} /> : null}
          Send
        </button>
      </div>
      <FreeTextCount id={`${id}-count`} typed={typed} max={o.field.maxChars} />
    </form>
  );
}

/** The dialog's words: its title over its question, a notice, its paragraphs, what it is about, and
 *  the screen as the agent draws it. */
function DialogWords({ input, paragraphs, agent }: { input: DialogInput; paragraphs: string[]; agent: string }) {
  return (
    <div className="approval-body dialog-body">
      {input.headline ? <p className="dialog-kicker">{input.title}</p> : null}
      {input.notice ? (
        <p className="approval-error" role="alert">
          Your answer was not typed: {input.notice}
        </p>
      ) : null}
      {paragraphs.map((text, i) => (
        <p key={i} className="dialog-text">
          {text}
        </p>
      ))}
      {input.about ? (
        <p className="dialog-about">
          <span className="dialog-about-kind">{ABOUT_LABEL[input.about.kind]}</span>
          <code className="trust-path dialog-about-text">{input.about.text}</code>
        </p>
      ) : null}
      <details className="trust-screen">
        <summary>What {agent} shows</summary>
        <pre className="tool-pre">{input.text.join('\n')}</pre>
      </details>
    </div>
  );
}

/** A question whose note goes with the option chosen (Codex's): the note is typed first, then an
 *  option sends both; an empty note sends the option alone. */
function NotesCard(o: { request: PendingRequest; input: DialogInput; paragraphs: string[]; busy: string | null; submit: SubmitAnswer }) {
  const agent = useAgentName();
  const [note, setNote] = useState('');
  const field = o.input.freeText!;
  const typed = cleanFreeText(note).length;
  const over = typed > field.maxChars;
  const id = `notes-${o.request.id}`;
  return (
    <>
      <DialogWords input={o.input} paragraphs={o.paragraphs} agent={agent} />
      <div className="dialog-free-text">
        <label className="field-label" htmlFor={id}>
          Add a note to your answer (optional)
        </label>
        <input id={id} className="field-input" value={note} onChange={(event) => setNote(event.target.value)} placeholder={field.placeholder ?? 'A note…'} aria-describedby={`${id}-count`} aria-invalid={over} />
        <FreeTextCount id={`${id}-count`} typed={typed} max={field.maxChars} />
      </div>
      <div className="dialog-options" role="group" aria-label={`${agent}'s options`}>
        {o.input.options.map((option) => (
          <ActionButton
            key={option.key}
            id={`choice-${option.key}`}
            busy={o.busy}
            disabled={over}
            onClick={() => void o.submit({ decision: 'allow', choice: option.key, ...(typed > 0 ? { text: note } : {}) }, `choice-${option.key}`)}
          >
            <OptionLabel label={option.label} detail={option.detail} />
          </ActionButton>
        ))}
        <Link to="/sessions/$sessionId/terminal" params={{ sessionId: o.request.sessionId }} className="button dialog-terminal">
          Open terminal
        </Link>
      </div>
    </>
  );
}

function FreeTextCount({ id, typed, max }: { id: string; typed: number; max: number }) {
  const over = typed > max;
  return (
    <span id={id} className={over ? 'dialog-free-count dialog-free-over' : 'dialog-free-count'}>
      {typed} / {max}
      {over ? ' · too long' : ''}
    </span>
  );
}
