// prompt-text.ts: when two prompt texts are the same prompt, for every launch kind: the transcript's
// user line names the prompt the runner typed (PTY) or sent (headless) by its text. Line endings and
// the edges' whitespace are the agent's to change; nothing else is.
export function normalizePromptText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}
