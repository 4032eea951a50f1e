// chat.ts: `tether chat <session> [--json] [--follow]`: a session's structured chat, as the phone
// sees it (/web session:watch backfill, then message:added while following). --json prints one
// ChatMessage per line (JSONL, the shared schema's field names). The session's reviews follow as
// cards (review:list, then review:updated while following); in --json each is one line
// `{"review": Review}`, which no ChatMessage line has.
import { isFinalStatus, type ChatMessage, type ContentBlock, type Review, type Session } from '@tether/shared';
import { CommandError, sessionArgument, parseFlags, type Command } from './command.ts';
import { connectAsPhone, requireCredentials } from './hub-access.ts';

/** Longest tool input / result shown in the human format; --json has everything. */
const PREVIEW_CHARS = 200;

function preview(value: string): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
}

function renderBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'thinking':
      return `(thinking) ${preview(block.text)}`;
    case 'tool_use':
      return `→ ${block.name} ${preview(JSON.stringify(block.input))}`;
    case 'tool_result':
      return `${block.isError ? '✗' : '←'} ${preview(block.content)}`;
    case 'interrupt':
      return `⏹ ${block.text}`;
    default: {
      const never: never = block;
      return JSON.stringify(never);
    }
  }
}

export function renderMessage(message: ChatMessage): string {
  const who = message.sidechain ? `${message.role} (agent ${message.agentId ?? '?'})` : message.role;
  const body = message.content.map(renderBlock).join('\n');
  return `[${who}] ${body.replace(/\n/g, '\n  ')}`;
}

/** A review card: the reviewer, its state, the focus and the final answer (whole: the card's own
 *  copy is already capped by the hub). */
export function renderReview(review: Review): string {
  const focus = review.focus ? ` · focus: ${preview(review.focus)}` : '';
  const answer = review.finalAnswer ? `\n  ${review.finalAnswer.replace(/\n/g, '\n  ')}` : '';
  return `[review ${review.id}] ${review.agent} · ${review.state} (read-only)${focus}${answer}`;
}

const command: Command = {
  name: 'chat',
  summary: "print a session's chat (--json, --follow)",
  usage: 'tether chat <session> [--json] [--follow]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json', 'follow'] });
    const sessionId = sessionArgument({ positionals, usage: command.usage });
    const creds = requireCredentials();
    const client = await connectAsPhone({ creds, device: 'tether chat', reconnection: !!flags.follow });
    let lastSeq = 0;
    const print = (messages: ChatMessage[]) => {
      for (const m of [...messages].sort((a, b) => a.seq - b.seq)) {
        if (m.seq <= lastSeq) continue;
        lastSeq = m.seq;
        process.stdout.write(`${flags.json ? JSON.stringify(m) : renderMessage(m)}\n`);
      }
    };
    try {
      let session: Session | null = null;
      // Page forward from the start (a watch without afterSeq gives only the latest page).
      for (;;) {
        const ack = await client.request('session:watch', { sessionId, afterSeq: lastSeq });
        if (!ack.ok) throw new CommandError(ack.code === 'not_found' ? `no session ${sessionId} in this namespace` : ack.error);
        session = ack.session;
        print(ack.messages);
        if (!ack.more || ack.messages.length === 0) break;
      }
      const printReview = (review: Review) => process.stdout.write(`${flags.json ? JSON.stringify({ review }) : renderReview(review)}\n`);
      const reviews = await client.request('review:list', { sessionId });
      if (reviews.ok) reviews.reviews.forEach(printReview);
      if (!flags.follow || !session || isFinalStatus(session.status)) return 0;
      await new Promise<void>((resolve) => {
        client.socket.on('message:added', (payload: { sessionId: string; messages: ChatMessage[] }) => {
          if (payload.sessionId === sessionId) print(payload.messages);
        });
        client.socket.on('review:updated', (review: Review) => {
          if (review.parentId === sessionId) printReview(review);
        });
        client.socket.on('session:updated', (s: Session) => {
          if (s.id === sessionId && isFinalStatus(s.status)) resolve();
        });
        client.socket.io.on('reconnect', () => {
          void client.request('session:watch', { sessionId, afterSeq: lastSeq }).then((ack) => ack.ok && print(ack.messages));
        });
        process.once('SIGINT', () => resolve());
      });
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
