// attachments.ts (routes): `/api/sessions/:id/attachments`: upload a file for the session's next
// prompt (the body is the file's bytes, `?name=` its name), read it back (the runner, when it
// delivers the prompt), or remove it (the composer's remove button). The upload's own body limit is
// set in app.ts (ATTACHMENT_MAX_BYTES instead of the API's 1 MiB).
// Invariant: an attachment of another namespace or another session answers 404 like a missing one.
import { Hono, type Context } from 'hono';
import { AttachmentIdSchema, AttachmentUploadQuerySchema, cleanAttachmentName, describeZodError, SessionIdSchema } from '@tether/shared';
import type { Attachments } from '../../attachments/attachments.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError } from '../errors.ts';

const NOT_FOUND = 'no such attachment';

function ids(c: Context<HubHttpEnv>, withAttachment: boolean): { sessionId: string; attachmentId: string } | Response {
  const session = SessionIdSchema.safeParse(c.req.param('id'));
  if (!session.success) return httpError(c, { code: 'bad_request', error: describeZodError(session.error) });
  if (!withAttachment) return { sessionId: session.data, attachmentId: '' };
  const attachment = AttachmentIdSchema.safeParse(c.req.param('attachmentId'));
  if (!attachment.success) return httpError(c, { code: 'bad_request', error: describeZodError(attachment.error) });
  return { sessionId: session.data, attachmentId: attachment.data };
}

/** RFC 6266 `filename*` (RFC 5987 ext-value): every byte outside attr-char percent-encoded.
 *  encodeURIComponent leaves ' ( ) * ! unencoded; of those only ! is an attr-char. The name is
 *  cleaned again (a row stored by an older hub may hold a bidi override); a name left empty is
 *  "attachment". */
function contentDisposition(name: string): string {
  const clean = cleanAttachmentName(name) || 'attachment';
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename*=UTF-8''${encoded}`;
}

export function createAttachmentRoutes(options: { attachments: Attachments }) {
  const { attachments } = options;
  const app = new Hono<HubHttpEnv>();

  app.post('/:id/attachments', async (c) => {
    const found = ids(c, false);
    if (found instanceof Response) return found;
    const query = AttachmentUploadQuerySchema.safeParse(c.req.query());
    if (!query.success) return httpError(c, { code: 'bad_request', error: describeZodError(query.error) });
    const data = new Uint8Array(await c.req.arrayBuffer());
    const ack = await attachments.upload(c.get('caller').namespace, { sessionId: found.sessionId, name: query.data.name, data });
    if (!ack.ok) return httpError(c, { code: ack.code, error: ack.error });
    return c.json({ attachment: ack.attachment }, 201);
  });

  app.get('/:id/attachments/:attachmentId', async (c) => {
    const found = ids(c, true);
    if (found instanceof Response) return found;
    const stored = await attachments.read(c.get('caller').namespace, found.sessionId, found.attachmentId);
    if (!stored) return httpError(c, { code: 'not_found', error: NOT_FOUND });
    return new Response(stored.data as Uint8Array<ArrayBuffer>, {
      headers: {
        'Content-Type': stored.attachment.mediaType,
        'Content-Length': String(stored.data.length),
        'Content-Disposition': contentDisposition(stored.attachment.name),
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
      },
    });
  });

  app.delete('/:id/attachments/:attachmentId', async (c) => {
    const found = ids(c, true);
    if (found instanceof Response) return found;
    if (!(await attachments.remove(c.get('caller').namespace, found.sessionId, found.attachmentId))) return httpError(c, { code: 'not_found', error: NOT_FOUND });
    return c.json({ ok: true as const });
  });

  return app;
}
