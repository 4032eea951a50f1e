// clipped-pre.tsx: a long text (a tool's output or input) drawn clipped until "Show all" is pressed,
// and how a caller draws a file path. A leaf: tool-input.tsx and file-changes.tsx both import it, it
// imports neither (no import circle in web/, tests/architecture.test.ts).
import { useState, type ReactNode } from 'react';

/** Text past this many characters is clipped until "Show all" is pressed: a 2 MB build log or a
 *  huge Write must not freeze a phone. */
const PREVIEW_CHARS = 4_000;

export type RenderPath = (path: string) => ReactNode;

export function ClippedPre({ text, error, label }: { text: string; error?: boolean; label?: string }) {
  const [full, setFull] = useState(false);
  const clipped = !full && text.length > PREVIEW_CHARS;
  return (
    <>
      <pre className={error ? 'tool-pre tool-pre-error' : 'tool-pre'} aria-label={label}>
        {clipped ? `${text.slice(0, PREVIEW_CHARS)}…` : text}
      </pre>
      {clipped ? (
        <button type="button" className="link-button" onClick={() => setFull(true)}>
          Show all ({Math.round(text.length / 1000)}k characters)
        </button>
      ) : null}
    </>
  );
}
