// pending.ts: `tether pending [--json]`: every approval, question and plan still waiting for an
// answer in this user's namespace (GET /api/pending), with the ids `tether answer` takes.
import { ElicitationInputSchema, PendingRequestSchema, type PendingRequest } from '@tether/shared';
import { z } from 'zod';
import { getHubJson, requireCredentials } from './hub-access.ts';
import { listingVerb } from './listing.ts';

const PendingListSchema = z.object({ pending: z.array(PendingRequestSchema) });

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
  if (request.kind === 'dialog') {
    const choices = Array.isArray(input.options) ? (input.options as Array<{ key?: string; label?: string }>) : [];
    return `${String(input.title ?? '')} [${choices.map((o) => `${o.key}. ${o.label}`).join(' | ')}]`.slice(0, DETAIL_CHARS);
  }
  if (request.kind === 'elicitation') {
    const form = ElicitationInputSchema.safeParse(input);
    if (form.success) {
      const required = new Set(form.data.requestedSchema.required ?? []);
      const fields = Object.entries(form.data.requestedSchema.properties).map(([name, field]) => `${name}${required.has(name) ? '*' : ''}: ${field.type === 'string' && field.enum ? field.enum.join('|') : field.type}`);
      return `${form.data.message} [${fields.join(', ')}] (answer: allow --content '{…}' | deny)`.slice(0, DETAIL_CHARS * 2);
    }
  }
  const main = input.command ?? input.file_path ?? input.notebook_path ?? input.url ?? JSON.stringify(input);
  return String(main).replace(/\s+/g, ' ').slice(0, DETAIL_CHARS);
}

/** Each request's ids and tool on one line, what it asks on the next. */
function text(pending: PendingRequest[]): string {
  return pending.map((r) => `${r.id}  ${r.kind}  ${r.toolName}  session ${r.sessionId}\n    ${detail(r)}`).join('\n');
}

export default listingVerb({
  name: 'pending',
  summary: 'list approvals and questions waiting for an answer',
  usage: 'tether pending [--json]',
  key: 'pending',
  fetch: async () => (await getHubJson({ creds: requireCredentials(), path: '/api/pending', schema: PendingListSchema, what: 'a pending list' })).pending,
  text,
  empty: 'nothing is waiting',
});
