// attachments.ts (queries): files uploaded for a session's prompts. The caps are checked in the
// transaction that inserts, so two uploads at once cannot pass one together (in PostgreSQL the
// session row is locked first: every upload of a namespace's session queues behind it). A delete
// scrubs: no copy of the bytes stays in the database's free pages or its WAL (driver.ts).
import type { AddAttachmentResult, Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { rowBytes, rowToAttachment } from '../rows.ts';

const META = 'id, namespace, session_id, name, media_type, size, created_at';

type AttachmentQueries = Pick<Store, 'addAttachment' | 'getAttachment' | 'findAttachments' | 'deleteAttachment' | 'deleteSessionAttachments'>;

export function attachmentQueries(db: SqlDriver): AttachmentQueries {
  return {
    async addAttachment({ namespace, attachment, data, caps }) {
      return db.transaction(async (tx): Promise<AddAttachmentResult> => {
        const owner = await first(tx, `SELECT id FROM sessions WHERE id = $1 AND namespace = $2${db.lockRows}`, [attachment.sessionId, namespace]);
        if (!owner) return { kind: 'not_found' };
        const session = await first(tx, `SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM attachments WHERE session_id = $1`, [attachment.sessionId]);
        if (Number(session?.n ?? 0) + 1 > caps.perSession) return { kind: 'full', cap: 'session_count' };
        if (Number(session?.bytes ?? 0) + attachment.size > caps.sessionBytes) return { kind: 'full', cap: 'session_bytes' };
        const all = await first(tx, `SELECT COALESCE(SUM(size), 0) AS bytes FROM attachments WHERE namespace = $1`, [namespace]);
        if (Number(all?.bytes ?? 0) + attachment.size > caps.namespaceBytes) return { kind: 'full', cap: 'namespace_bytes' };
        await tx.run(`INSERT INTO attachments (${META}, data) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
          attachment.id,
          namespace,
          attachment.sessionId,
          attachment.name,
          attachment.mediaType,
          attachment.size,
          attachment.createdAt,
          data,
        ]);
        return { kind: 'added', attachment };
      });
    },
    async getAttachment({ namespace, sessionId, id }) {
      const row = await first(db, `SELECT ${META}, data FROM attachments WHERE id = $1 AND session_id = $2 AND namespace = $3`, [id, sessionId, namespace]);
      return row ? { attachment: rowToAttachment(row), data: rowBytes(row.data) } : null;
    },
    async findAttachments({ namespace, sessionId, ids }) {
      if (ids.length === 0) return [];
      const rows = await db.all(`SELECT ${META} FROM attachments WHERE session_id = $1 AND namespace = $2`, [sessionId, namespace]);
      const wanted = new Set(ids);
      return rows.filter((row) => wanted.has(row.id as string)).map(rowToAttachment);
    },
    async deleteAttachment({ namespace, sessionId, id }) {
      const deleted = await db.run(`DELETE FROM attachments WHERE id = $1 AND session_id = $2 AND namespace = $3`, [id, sessionId, namespace]);
      if (deleted > 0) await db.scrub();
      return deleted > 0;
    },
    async deleteSessionAttachments({ namespace, sessionId }) {
      const deleted = await db.run(`DELETE FROM attachments WHERE session_id = $1 AND namespace = $2`, [sessionId, namespace]);
      if (deleted > 0) await db.scrub();
      return deleted;
    },
  };
}
