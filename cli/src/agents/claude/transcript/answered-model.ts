// answered-model.ts: the model that is answering a claude session, from the facts its transcript
// writes every turn: the assistant line's `message.model` (every version) and, in 2.1.33x, the
// `model` attachment at a turn's start (`identity.modelId`).
//
// Why: `/model` is read from its command and output lines (local-commands.ts), but claude 2.1.331
// writes neither when the command was queued (typed while the turn's Stop hooks still ran): the
// model switches and the transcript never says so. The next turn's lines do, so the session's model
// is right again by then at the latest.
//
// Only lines written since the reader was made count: a resume re-reads history, whose model may be
// one the session no longer runs (`--resume <id> --model sonnet`).

/** Clock slack between this process and claude's timestamps (same machine: small). */
const SINCE_SLACK_MS = 5_000;

export type AnsweredModelReader = {
  /** The model `line` says is answering, or null when it says nothing about it. */
  take(line: string): string | null;
};

export function createAnsweredModelReader(o: { now?: () => number } = {}): AnsweredModelReader {
  const since = (o.now ?? Date.now)() - SINCE_SLACK_MS;
  return {
    take(line) {
      // Only assistant and attachment lines: skip the parse for every other line.
      if (!line.includes('"type":"assistant"') && !line.includes('"modelId"')) return null;
      let rec: { type?: unknown; isSidechain?: unknown; timestamp?: unknown; message?: { model?: unknown }; attachment?: { type?: unknown; identity?: { modelId?: unknown } } };
      try {
        rec = JSON.parse(line);
      } catch {
        return null; // the chat parser reports malformed lines
      }
      if (typeof rec !== 'object' || rec === null || rec.isSidechain === true) return null;
      const at = typeof rec.timestamp === 'string' ? Date.parse(rec.timestamp) : Number.NaN;
      if (!(at >= since)) return null;
      const model = rec.type === 'assistant' ? rec.message?.model : rec.type === 'attachment' && rec.attachment?.type === 'model' ? rec.attachment.identity?.modelId : undefined;
      // `<synthetic>`: claude's own filler (after Esc, a resume), never an API answer.
      if (typeof model !== 'string' || model === '' || model === '<synthetic>') return null;
      return model;
    },
  };
}
