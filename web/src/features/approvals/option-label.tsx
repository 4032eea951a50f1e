// option-label.tsx: an answer button's words: the option's label, and under it its detail (a
// dialog option's rest, a question option's description) when it has one.
export function OptionLabel({ label, detail }: { label: string; detail?: string | undefined }) {
  if (!detail) return <>{label}</>;
  return (
    <span className="dialog-option-text">
      <span>{label}</span>
      <span className="dialog-option-detail">{detail}</span>
    </span>
  );
}
