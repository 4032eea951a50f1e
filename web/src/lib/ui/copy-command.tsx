// copy-command.tsx: a shell command shown in monospace with a one-tap Copy button.
// Falls back to selecting the text where the Clipboard API is unavailable (plain http on a LAN).
import { useRef, useState } from 'react';
import { IconCheck, IconCopy } from './icons.tsx';

/** How long "Copied" stays before the button returns to "Copy". */
const COPIED_FEEDBACK_MS = 1_600;

export function CopyCommand({ command, label }: { command: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const codeRef = useRef<HTMLElement>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(command);
    } catch {
      // No clipboard permission (insecure origin): select the text so a long-press copies it.
      const node = codeRef.current;
      const selection = window.getSelection();
      if (node && selection) {
        const range = document.createRange();
        range.selectNodeContents(node);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      return;
    }
    setCopied(true);
    setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
  }

  return (
    <div className="copy-command">
      <span className="copy-command-prompt" aria-hidden="true">
        $
      </span>
      <code ref={codeRef}>{command}</code>
      <button
        type="button"
        className="icon-button copy-command-button"
        onClick={copy}
        aria-label={copied ? 'Copied' : (label ?? `Copy “${command}”`)}
        title="Copy"
      >
        {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
      </button>
    </div>
  );
}
