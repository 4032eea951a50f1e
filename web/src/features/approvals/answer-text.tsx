// answer-text.tsx: words a person sends with an answer (a reason, feedback, an edited command): a
// labelled text area. `verbatim` text is code: monospace, and the phone neither capitalises,
// corrects nor spell-checks it.
export function AnswerText(o: { id: string; label: string; value: string; onChange: (value: string) => void; rows: number; placeholder?: string; verbatim?: boolean }) {
  return (
    <>
      <label className="field-label" htmlFor={o.id}>
        {o.label}
      </label>
      <textarea
        id={o.id}
        className={o.verbatim ? 'field-input field-area field-mono' : 'field-input field-area'}
        value={o.value}
        onChange={(event) => o.onChange(event.target.value)}
        placeholder={o.placeholder}
        rows={o.rows}
        {...(o.verbatim ? { autoCapitalize: 'off', autoCorrect: 'off', spellCheck: false } : {})}
      />
    </>
  );
}
