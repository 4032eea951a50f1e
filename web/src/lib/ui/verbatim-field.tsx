// verbatim-field.tsx: a labelled one-line field for text typed exactly as it is meant (a folder, a
// model name, a branch): monospace, and the phone neither capitalises, corrects nor spell-checks it.
import type { InputHTMLAttributes } from 'react';

export function VerbatimField({ id, label, ...input }: { id: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="field-input field-mono" autoCapitalize="off" autoCorrect="off" spellCheck={false} {...input} />
    </>
  );
}
