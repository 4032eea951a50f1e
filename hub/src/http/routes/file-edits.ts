// file-edits.ts (routes): a person's save of one text file, from the Files view:
//   PUT /api/sessions/:id/file   { path, text, base, confirm?, device? }
//     200 { kind: 'written', path, size, hash, eol }
//     409 { error, code: 'conflict', stale: { kind: 'stale', path, hash, text } }   changed since opened
//     409 { error: FILE_MID_TURN_REFUSAL, code: 'conflict' }                          confirm to save
// Invariant: the caller's namespace only (another's session is 404 like a missing one); the body is
// checked here (shared FileEditBodySchema) and again by the runner. A share link never reaches it:
// share links read through /api/share only. Never cached.
import { Hono } from 'hono';
import { describeZodError, FILE_STALE_REFUSAL, FileEditBodySchema, SessionIdSchema, type FileStaleBody } from '@tether/shared';
import type { FileEdits } from '../../file-edits/file-edits.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError } from '../errors.ts';

export function createFileEditRoutes(options: { edits: FileEdits }) {
  const app = new Hono<HubHttpEnv>();
  app.put('/:id/file', async (c) => {
    const id = SessionIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return httpError(c, { code: 'bad_request', error: describeZodError(id.error) });
    const raw = await c.req.json().catch(() => undefined);
    const body = FileEditBodySchema.safeParse(raw);
    if (!body.success) return httpError(c, { code: 'bad_request', error: describeZodError(body.error) });
    const { confirm, device, ...request } = body.data;
    const caller = c.get('caller');
    const ack = await options.edits.write({ namespace: caller.namespace, label: caller.label, device }, { sessionId: id.data, request, confirm });
    c.header('Cache-Control', 'no-store');
    if (!ack.ok) return httpError(c, { code: ack.code, error: ack.error });
    const { ok: _ok, ...answer } = ack;
    if (answer.kind === 'stale') return c.json({ error: FILE_STALE_REFUSAL, code: 'conflict', stale: answer } satisfies FileStaleBody, 409);
    return c.json(answer);
  });
  return app;
}
