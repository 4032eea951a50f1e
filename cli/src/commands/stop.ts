// stop.ts: `tether stop <session>`: stop a session as the phone does (graceful, then forced);
// returns once it has ended. A session with live reviews (issue 29) needs a word on them:
// --end-reviews ends them too, --keep-reviews leaves them running on their own, still linked. With
// neither, a person at a terminal is asked; any other caller gets the hub's refusal, each live
// review on its own line, and exit 1 (nothing was stopped).
import { type LiveReviewRef, type LiveReviewsChoice } from '@tether/shared';
import { CommandError, sessionArgument, parseFlags, readLine, type Command } from './command.ts';
import { connectAsPhone, requireCredentials } from './hub-access.ts';

/** The choice the flags give, or undefined; both is a usage error. */
export function reviewsChoice(flags: { 'end-reviews'?: true; 'keep-reviews'?: true }): LiveReviewsChoice | undefined {
  if (flags['end-reviews'] && flags['keep-reviews']) throw new CommandError('--end-reviews and --keep-reviews exclude each other', 2);
  if (flags['end-reviews']) return 'end';
  return flags['keep-reviews'] ? 'keep' : undefined;
}

/** A person's answer to "end them too?": e(nd) or k(eep); anything else cancels. */
export function choiceFromAnswer(answer: string): LiveReviewsChoice | null {
  const word = answer.trim().toLowerCase();
  if (word === 'e' || word === 'end') return 'end';
  if (word === 'k' || word === 'keep') return 'keep';
  return null;
}

/** The live reviews, one a line, as a shell user reads them. */
export function liveReviewsLines(reviews: readonly LiveReviewRef[]): string {
  return reviews.map((r) => `  ${r.id}  ${r.agent} · ${r.state}${r.focus.trim() ? ` · focus: ${r.focus.trim().split('\n')[0]!.slice(0, 60)}` : ''}`).join('\n');
}

const command: Command = {
  name: 'stop',
  summary: 'stop a session (graceful, then forced)',
  usage: 'tether stop <session> [--end-reviews | --keep-reviews] [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json', 'end-reviews', 'keep-reviews'] });
    const sessionId = sessionArgument({ positionals, usage: command.usage });
    const reviews = reviewsChoice(flags);
    const creds = requireCredentials();
    const { stopSession } = await import('../web-client/session-control.ts');
    const client = await connectAsPhone({ creds, device: 'tether stop' });
    try {
      let ack = await stopSession(client, { sessionId, ...(reviews ? { reviews } : {}) });
      if (!ack.ok && ack.reason === 'reviews_live') {
        const live = (ack as { reviews?: LiveReviewRef[] }).reviews ?? [];
        const asked = flags.json || !process.stdin.isTTY || !process.stdout.isTTY ? null : await ask(live);
        if (!asked) {
          if (flags.json) process.stdout.write(`${JSON.stringify({ ok: false, code: ack.code, reason: ack.reason, reviews: live, error: ack.error })}\n`);
          throw new CommandError(`not stopped: its reviews still run:\n${liveReviewsLines(live)}\nrun it again with --end-reviews (end them too) or --keep-reviews (they run on, still linked)`);
        }
        ack = await stopSession(client, { sessionId, reviews: asked });
      }
      if (!ack.ok) throw new CommandError(`stop failed: ${ack.error}`);
      if (flags.json) process.stdout.write(`${JSON.stringify({ sessionId, status: ack.session.status, exitCode: ack.session.exitCode })}\n`);
      else process.stdout.write(`stopped ${sessionId} (${ack.session.status})\n`);
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;

/** Asks a person at a terminal; any other answer cancels (nothing is stopped). */
async function ask(live: readonly LiveReviewRef[]): Promise<LiveReviewsChoice> {
  process.stdout.write(`its reviews still run:\n${liveReviewsLines(live)}\n`);
  const choice = choiceFromAnswer(await readLine('end them too, or keep them running on their own? [e]nd / [k]eep / anything else cancels: '));
  if (!choice) throw new CommandError('cancelled: nothing was stopped');
  return choice;
}
