// attachments.ts: files sent with a prompt from the phone (a photo, a screenshot, a PDF, a text
// file). The phone uploads each one to the hub (`POST /api/sessions/:id/attachments`), which sniffs
// its type from its bytes and stores it for that session only; the prompt names the ids, and the
// runner fetches the bytes when it delivers the prompt (headless: content blocks; PTY: a file under
// the session's temp dir, named with `@path` in the typed prompt).
import { z } from 'zod';
import { SessionIdSchema, TimestampSchema } from './ids.ts';
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_MEDIA_TYPES, cleanAttachmentName } from './wire.ts';

export { ATTACHMENT_DIR_PREFIX, ATTACHMENT_MAX_BYTES, ATTACHMENT_MEDIA_TYPES, cleanAttachmentName, MAX_ATTACHMENTS_PER_PROMPT, splitAttachmentMentions, type AttachmentMediaType } from './wire.ts';

/** Attachments one session may hold at once, and their bytes together (a phone's afternoon of
 *  screenshots; they are deleted when the session ends). */
export const MAX_ATTACHMENTS_PER_SESSION = 50;
export const MAX_SESSION_ATTACHMENT_BYTES = 50 * 1024 * 1024;
/** Bytes of attachments one namespace may hold over all its live sessions: the hub's disk is shared. */
export const MAX_NAMESPACE_ATTACHMENT_BYTES = 200 * 1024 * 1024;
/** Longest file name kept (the runner makes its own safe name on disk from it). */
export const MAX_ATTACHMENT_NAME_CHARS = 200;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Made by the hub when it stores the upload. */
export const AttachmentIdSchema = z.string().regex(UUID_RE, 'attachment id must be a UUID');
export type AttachmentId = z.infer<typeof AttachmentIdSchema>;

export const AttachmentMediaTypeSchema = z.enum(ATTACHMENT_MEDIA_TYPES);

/** A file name as the phone gave it, without any folder part, control or format character
 *  (cleanAttachmentName: nothing in it can reorder or hide what it shows). */
export const AttachmentNameSchema = z
  .string()
  .transform(cleanAttachmentName)
  .pipe(z.string().min(1, 'attachment name is empty (or only invisible characters)').max(MAX_ATTACHMENT_NAME_CHARS));

/** What a prompt carries about each attachment, and what the runner needs to fetch and place it. */
export const AttachmentRefSchema = z.object({
  id: AttachmentIdSchema,
  name: z.string().min(1).max(MAX_ATTACHMENT_NAME_CHARS),
  mediaType: AttachmentMediaTypeSchema,
  size: z.number().int().min(1).max(ATTACHMENT_MAX_BYTES),
});
export type AttachmentRef = z.infer<typeof AttachmentRefSchema>;

export const AttachmentSchema = AttachmentRefSchema.extend({ sessionId: SessionIdSchema, createdAt: TimestampSchema });
export type Attachment = z.infer<typeof AttachmentSchema>;

/** `POST /api/sessions/:id/attachments?name=…` (the body is the file's bytes). */
export const AttachmentUploadQuerySchema = z.object({ name: AttachmentNameSchema });
export type AttachmentUploaded = { attachment: Attachment };

/** Whether a media type is an image (a headless session sends it as an image block). */
export function isImageMediaType(mediaType: string): boolean {
  return mediaType.startsWith('image/');
}

/** The type of a file from its first bytes (magic numbers), never from its name or the type the
 *  client claimed; null when it is none of ATTACHMENT_MEDIA_TYPES. Text is UTF-8 without NUL, DEL or
 *  other control characters than tab, newline, carriage return and form feed. */
export function sniffAttachmentType(bytes: Uint8Array): (typeof ATTACHMENT_MEDIA_TYPES)[number] | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  return isPlainText(bytes) ? 'text/plain' : null;
}

function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  // shared/ compiles without DOM or Bun (no TextDecoder): UTF-8 is checked by hand, as RFC 3629
  // defines it (no overlong forms, no surrogates, nothing past U+10FFFF).
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) || b === 0x7f) return false;
      i += 1;
      continue;
    }
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return false;
    const second = bytes[i + 1]!;
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (second < low || second > high) return false;
    for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return false;
    i += length;
  }
  return true;
}
