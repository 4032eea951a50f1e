// elicitation-form.tsx: an MCP server's request for input (elicitation) as a form: its message, one
// field per property of the requested schema (text, number, yes/no, a choice), then Accept (sends
// the content), Decline or Cancel. The content is checked with shared `elicitationProblems`, the
// same rule the runner applies before claude hands it to the server.
import { useMemo, useState } from 'react';
import { ElicitationInputSchema, elicitationProblems, type ElicitationField, type ElicitationValue, type PendingRequest } from '@tether/shared';
import { Spinner } from '../../lib/ui/badge.tsx';
import type { SubmitAnswer } from './submit-answer.ts';
import { ActionButton } from './action-button.tsx';
import { UnreadableRequest } from './unreadable-request.tsx';

/** More choices than this show as a drop-down instead of a list of radio buttons. */
const MAX_RADIO_CHOICES = 5;

type Raw = string | boolean;

function initialValue(field: ElicitationField): Raw {
  if (field.type === 'boolean') return field.default ?? false;
  if (field.default === undefined) return '';
  return String(field.default);
}

/** The typed value of a raw field, or undefined when left empty (then it is not sent). */
function typedValue(field: ElicitationField, raw: Raw): ElicitationValue | undefined {
  if (field.type === 'boolean') return raw === true;
  const text = String(raw);
  if (text.trim() === '') return undefined;
  if (field.type === 'number' || field.type === 'integer') return Number(text);
  return text;
}

function inputType(field: ElicitationField): string {
  if (field.type === 'number' || field.type === 'integer') return 'number';
  if (field.type !== 'string') return 'text';
  switch (field.format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'date':
      return 'date';
    case 'date-time':
      return 'datetime-local';
    default:
      return 'text';
  }
}

export function ElicitationForm({ request, busy, submit }: { request: PendingRequest; busy: string | null; submit: SubmitAnswer }) {
  const parsed = useMemo(() => ElicitationInputSchema.safeParse(request.toolInput), [request.toolInput]);
  const fields = parsed.success ? Object.entries(parsed.data.requestedSchema.properties) : [];
  const required = new Set(parsed.success ? (parsed.data.requestedSchema.required ?? []) : []);
  const [values, setValues] = useState<Record<string, Raw>>(() => Object.fromEntries(fields.map(([name, field]) => [name, initialValue(field)])));
  const [problems, setProblems] = useState<Record<string, string>>({});

  const decline = (
    <ActionButton id="decline" busy={busy} onClick={() => void submit({ decision: 'deny', elicitation: { action: 'decline' } }, 'decline')}>
      Decline
    </ActionButton>
  );
  const cancel = (
    <ActionButton id="cancel" busy={busy} onClick={() => void submit({ decision: 'deny', elicitation: { action: 'cancel' } }, 'cancel')}>
      Cancel
    </ActionButton>
  );

  if (!parsed.success) {
    // The hub checks the shape; this only guards a version skew. Never guess at an answer.
    return (
      <UnreadableRequest input={request.toolInput} label="Request">
        {decline}
        {cancel}
      </UnreadableRequest>
    );
  }
  const { message, requestedSchema: schema } = parsed.data;

  function onAccept() {
    const content: Record<string, ElicitationValue> = {};
    for (const [name, field] of fields) {
      const value = typedValue(field, values[name] ?? '');
      if (value !== undefined) content[name] = value;
    }
    const found = elicitationProblems({ schema, content });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    void submit({ decision: 'allow', elicitation: { action: 'accept', content } }, 'accept');
  }

  const set = (name: string, value: Raw) => {
    setValues((current) => ({ ...current, [name]: value }));
    setProblems((current) => {
      if (!(name in current)) return current;
      const { [name]: _gone, ...rest } = current;
      return rest;
    });
  };

  return (
    <form
      className="elicitation-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onAccept();
      }}
    >
      <div className="approval-body">
        {message ? <p className="elicitation-message">{message}</p> : null}
        {fields.map(([name, field]) => (
          <ElicitationFieldInput key={name} id={`el-${request.id}-${name}`} name={name} field={field} value={values[name]} problem={problems[name]} required={required.has(name)} set={set} />
        ))}
      </div>
      <div className="approval-actions">
        {cancel}
        {decline}
        <button type="submit" className="button button-primary" disabled={busy !== null}>
          {busy === 'accept' ? <Spinner size={16} /> : null}
          Accept
        </button>
      </div>
    </form>
  );
}

/** One property of the requested schema as its input: a checkbox, radio buttons or a drop-down for a
 *  choice, or a text, number or date field; with its description and what is wrong with it. */
function ElicitationFieldInput(props: { id: string; name: string; field: ElicitationField; value: Raw | undefined; problem: string | undefined; required: boolean; set: (name: string, value: Raw) => void }) {
  const { id, name, field, value, problem, required, set } = props;
  const label = field.title || name;
  const describedBy = [field.description ? `${id}-desc` : null, problem ? `${id}-err` : null].filter(Boolean).join(' ') || undefined;
  const marker = required ? (
    <span className="elicitation-required" aria-hidden="true">
      {' '}
      *
    </span>
  ) : null;
  /** The label of a field that is one control (a drop-down, a text or number input). */
  const fieldLabel = (
    <label className="field-label" htmlFor={id}>
      {label}
      {marker}
    </label>
  );
  const notes = (
    <>
      {field.description ? (
        <span className="choice-description" id={`${id}-desc`}>
          {field.description}
        </span>
      ) : null}
      {problem ? (
        <span className="elicitation-problem" id={`${id}-err`} role="alert">
          {label} {problem}.
        </span>
      ) : null}
    </>
  );
  if (field.type === 'boolean') {
    return (
      <div className="elicitation-field">
        <label className="choice" htmlFor={id}>
          <input id={id} type="checkbox" checked={value === true} onChange={(event) => set(name, event.target.checked)} aria-describedby={describedBy} />
          <span className="choice-text">
            <span className="choice-label">
              {label}
              {marker}
            </span>
          </span>
        </label>
        {notes}
      </div>
    );
  }
  if (field.type === 'string' && field.enum) {
    const choices = field.enum.map((value, i) => ({ value, label: field.enumNames?.[i] ?? value }));
    if (choices.length <= MAX_RADIO_CHOICES) {
      return (
        <fieldset className="elicitation-field question" aria-describedby={describedBy}>
          <legend className="field-label">
            {label}
            {marker}
          </legend>
          {choices.map((choice) => (
            <label key={choice.value} className="choice choice-option">
              <input type="radio" name={id} value={choice.value} checked={value === choice.value} onChange={() => set(name, choice.value)} />
              <span className="choice-text">
                <span className="choice-label">{choice.label}</span>
              </span>
            </label>
          ))}
          {notes}
        </fieldset>
      );
    }
    return (
      <div className="elicitation-field">
        {fieldLabel}
        <select id={id} className="field-input" value={String(value ?? '')} onChange={(event) => set(name, event.target.value)} aria-describedby={describedBy} aria-invalid={problem ? true : undefined}>
          <option value="">Choose…</option>
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        {notes}
      </div>
    );
  }
  const numeric = field.type === 'number' || field.type === 'integer';
  return (
    <div className="elicitation-field">
      {fieldLabel}
      <input
        id={id}
        className="field-input"
        type={inputType(field)}
        inputMode={field.type === 'integer' ? 'numeric' : field.type === 'number' ? 'decimal' : undefined}
        step={field.type === 'integer' ? 1 : numeric ? 'any' : undefined}
        min={numeric ? field.minimum : undefined}
        max={numeric ? field.maximum : undefined}
        maxLength={field.type === 'string' ? field.maxLength : undefined}
        value={String(value ?? '')}
        onChange={(event) => set(name, event.target.value)}
        aria-required={required || undefined}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy}
      />
      {notes}
    </div>
  );
}
