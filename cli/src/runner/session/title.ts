// session/title.ts: the session's title on the hub. claude names a session itself: it writes
// `{"type":"ai-title","aiTitle":"…"}` lines into the transcript (a later one replaces an earlier one).
// Until it does (or when it never does: offline, `--bare`-like setups), the first line of the first
// prompt stands in, trimmed to TITLE_MAX_CHARS. The folder name is only the title of a session with
// no prompt yet.
import { splitAttachmentMentions, type ChatMessageInput } from '@tether/shared';

/** A phone's session list shows about this much; longer titles are cut with an ellipsis. */
export const TITLE_MAX_CHARS = 80;

export type TitleSource = 'cwd' | 'prompt' | 'ai';

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > TITLE_MAX_CHARS ? `${oneLine.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…` : oneLine;
}

/** The ai-title of a raw transcript line, or null (a cheap substring test first: most lines are not). */
export function aiTitleOf(line: string): string | null {
  if (!line.includes('"ai-title"')) return null;
  try {
    const rec = JSON.parse(line) as { type?: unknown; aiTitle?: unknown };
    if (rec.type !== 'ai-title' || typeof rec.aiTitle !== 'string') return null;
    const title = clip(rec.aiTitle);
    return title === '' ? null : title;
  } catch {
    return null;
  }
}

/** The first line of a main-thread user prompt, or null for anything else (slash commands too). */
export function promptTitleOf(message: ChatMessageInput): string | null {
  if (message.role !== 'user' || message.sidechain) return null;
  // `[image]` / `[document]` stand for files a headless prompt carried: not words to name it by.
  const first = message.content.find((b) => b.type === 'text' && b.text !== '[image]' && b.text !== '[document]');
  if (!first || first.type !== 'text') return null;
  // A prompt sent with files starts with their `@path`s: the title is what the person wrote.
  const line = splitAttachmentMentions(first.text).text.split('\n').find((l) => l.trim() !== '') ?? '';
  if (line.trim() === '' || line.trimStart().startsWith('/')) return null;
  return clip(line);
}

/** Decides title changes from transcript batches; `onChange` gets each new title once. */
export function createSessionTitle(options: { initial: { title: string; source: TitleSource }; onChange: (title: string, source: TitleSource) => void }) {
  let { title, source } = options.initial;
  const set = (next: string, nextSource: TitleSource) => {
    source = nextSource;
    if (next === title) return;
    title = next;
    options.onChange(title, source);
  };
  return {
    get title() {
      return title;
    },
    get source() {
      return source;
    },
    /** One tailer batch: raw lines (for ai-title) and the chat messages parsed from them. */
    take(lines: readonly string[], messages: readonly ChatMessageInput[]) {
      let ai: string | null = null;
      for (const line of lines) ai = aiTitleOf(line) ?? ai;
      if (ai) return set(ai, 'ai');
      if (source !== 'cwd') return;
      for (const message of messages) {
        const fromPrompt = promptTitleOf(message);
        if (fromPrompt) return set(fromPrompt, 'prompt');
      }
    },
  };
}
