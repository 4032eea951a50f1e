// attachments.ts: files the phone uploads for a session's prompts (shared/src/attachments.ts).
//
//   phone ─POST /api/sessions/:id/attachments─► here: session live? type by magic bytes? caps? ─► store
//   phone ─prompt:send {attachments: ids}─► sessions/prompt-delivery (refs from the store) ─► runner
//   runner ─GET /api/sessions/:id/attachments/:aid─► here ─► bytes
//
// Invariants: every read, upload and delete is scoped by the caller's namespace and the session
// (another namespace's attachment answers exactly like a missing one); the type is sniffed from the
// bytes, never taken from the name or the client's Content-Type; nothing past a cap is stored.
import {
  ATTACHMENT_MAX_BYTES,
  ackError,
  isFinalStatus,
  MAX_ATTACHMENTS_PER_SESSION,
  MAX_NAMESPACE_ATTACHMENT_BYTES,
  MAX_SESSION_ATTACHMENT_BYTES,
  sniffAttachmentType,
  type Ack,
  type Attachment,
  type AttachmentUploaded,
  type Namespace,
} from '@tether/shared';
import type { AttachmentCaps, Store } from '../store/store.ts';

export type Attachments = ReturnType<typeof createAttachments>;

const NO_SESSION = 'no such session';
const MIB = 1024 * 1024;

/** The words a full cap answers with: what is full and what to do. */
const FULL: Record<'session_count' | 'session_bytes' | 'namespace_bytes', string> = {
  session_count: `this session already holds ${MAX_ATTACHMENTS_PER_SESSION} attachments; they are cleared when the session ends`,
  session_bytes: `this session's attachments would pass ${MAX_SESSION_ATTACHMENT_BYTES / MIB} MiB; they are cleared when the session ends`,
  namespace_bytes: `your sessions' attachments would pass ${MAX_NAMESPACE_ATTACHMENT_BYTES / MIB} MiB; end a session to free its attachments`,
};

export function createAttachments(options: { store: Store; caps?: Partial<AttachmentCaps> }) {
  const { store } = options;
  const caps: AttachmentCaps = {
    perSession: MAX_ATTACHMENTS_PER_SESSION,
    sessionBytes: MAX_SESSION_ATTACHMENT_BYTES,
    namespaceBytes: MAX_NAMESPACE_ATTACHMENT_BYTES,
    ...options.caps,
  };
  return {
    async upload(ns: Namespace, upload: { sessionId: string; name: string; data: Uint8Array }): Promise<Ack<AttachmentUploaded>> {
      const { sessionId, name, data } = upload;
      if (data.length === 0) return ackError('bad_request', 'the file is empty');
      if (data.length > ATTACHMENT_MAX_BYTES) return ackError('too_large', `the file is over ${ATTACHMENT_MAX_BYTES / MIB} MiB`);
      const session = await store.getSession({ namespace: ns, sessionId });
      if (!session) return ackError('not_found', NO_SESSION);
      if (isFinalStatus(session.status)) return ackError('gone', 'session has ended');
      const mediaType = sniffAttachmentType(data);
      if (!mediaType) return ackError('bad_request', 'not a PNG, JPEG, GIF or WebP image, a PDF or a plain-text (UTF-8) file');
      const attachment: Attachment = { id: crypto.randomUUID(), sessionId, name, mediaType, size: data.length, createdAt: Date.now() };
      const result = await store.addAttachment({ namespace: ns, attachment, data, caps });
      if (result.kind === 'not_found') return ackError('not_found', NO_SESSION);
      if (result.kind === 'full') return ackError('too_large', FULL[result.cap]);
      return { ok: true, attachment: result.attachment };
    },
    /** The bytes and what they are; null for a missing one (or another namespace's, or another session's). */
    read(ns: Namespace, sessionId: string, id: string) {
      return store.getAttachment({ namespace: ns, sessionId, id });
    },
    remove(ns: Namespace, sessionId: string, id: string): Promise<boolean> {
      return store.deleteAttachment({ namespace: ns, sessionId, id });
    },
  };
}
