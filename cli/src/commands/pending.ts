// pending.ts: `tether pending [--json]`: every approval, question and plan still waiting for an
// answer in this user's namespace (GET /api/pending), with the ids `tether answer` takes.
import { PendingRequestSchema, type PendingRequest } from '@tether/shared';
import { z } from 'zod';
import { CommandError, parseFlags, type Command } from './command.ts';
import { loadCredentials } from '../config/credentials.ts';

/** A hub that does not answer by then is unreachable for a CLI user waiting at the prompt. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Tool input shown per request in the table (the JSON has all of it). */
const DETAIL_CHARS = 200;

function detail(request: PendingRequest): string {
  const input = request.toolInput;
  if (request.kind === 'question' && Array.isArray(input.questions)) {
    return (input.questions as Array<{ question?: string; multiSelect?: boolean; options?: Array<{ label?: string }> }>)
      .map((q) => `${q.question ?? ''} [${(q.options ?? []).map((o) => o.label).join(' | ')}]${q.multiSelect ? ' (several)' : ''}`)
      .join('\n    ');
  }
  if (request.kind === 'plan') return String(input.plan ?? '').slice(0, DETAIL_CHARS);
  const main = input.command ?? input.file_path ?? input.notebook_path ?? input.url ?? JSON.stringify(input);
  return String(main).replace(/\s+/g, ' ').slice(0, DETAIL_CHARS);
}

const command: Command = {
  name: 'pending',
  summary: 'list approvals and questions waiting for an answer',
  usage: 'tether pending [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json'] });
    if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`);
    const creds = loadCredentials();
    if (!creds) throw new CommandError('not logged in: run tether auth login --hub URL --token T (or set TETHER_HUB_URL and TETHER_TOKEN)');
    let res: Response;
    try {
      res = await fetch(`${creds.hubUrl}/api/pending`, {
        headers: { authorization: `Bearer ${creds.token}` },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new CommandError(`cannot reach the hub at ${creds.hubUrl}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) throw new CommandError(`hub refused: ${(body as { error?: string } | null)?.error ?? `HTTP ${res.status}`}`);
    const parsed = z.object({ pending: z.array(PendingRequestSchema) }).safeParse(body);
    if (!parsed.success) throw new CommandError('hub sent a malformed pending list');
    const pending = parsed.data.pending;
    if (flags.json) {
      console.log(JSON.stringify({ pending }));
      return 0;
    }
    if (pending.length === 0) {
      console.log('nothing is waiting');
      return 0;
    }
    for (const r of pending) {
      console.log(`${r.id}  ${r.kind}  ${r.toolName}  session ${r.sessionId}\n    ${detail(r)}`);
    }
    return 0;
  },
};
export default command;
