// messages.ts (queries): a session's chat. Invariant: `seq` is per session, strictly increasing and
// gapless, assigned inside the transaction that holds the session row (PostgreSQL: FOR UPDATE, so two
// hubs appending to one session never share a seq; SQLite: the immediate transaction); an id already
// stored is not stored again and reports its seq.
// findMessages is a search's first pass: a LIKE over one session's stored JSON, newest first, in a
// seq range by the table's key; what it returns may hold the words only in a key or an id, so the
// caller tests each line again (hub/src/find/).
import type { ChatMessage } from '@tether/shared';
import type { AppendMessagesResult, Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { rowToMessage, type Row } from '../rows.ts';
import { sessionIn } from './sessions.ts';

export function messageQueries(db: SqlDriver): Pick<Store, 'appendMessages' | 'listMessages' | 'findMessages'> {
  return {
    async appendMessages({ namespace, sessionId, messages }) {
      return db.transaction(async (tx): Promise<AppendMessagesResult | null> => {
        const owner = await first(tx, `SELECT namespace, last_seq FROM sessions WHERE id = $1${db.lockRows}`, [sessionId]);
        if (!owner || owner.namespace !== namespace) return null;
        let seq = Number(owner.last_seq);
        const added: ChatMessage[] = [];
        const seqs: number[] = [];
        for (const message of messages) {
          const existing = await first(tx, `SELECT seq FROM messages WHERE session_id = $1 AND id = $2`, [sessionId, message.id]);
          if (existing) {
            seqs.push(Number(existing.seq));
            continue;
          }
          seq += 1;
          await tx.run(`INSERT INTO messages (session_id, seq, id, json) VALUES ($1, $2, $3, $4)`, [sessionId, seq, message.id, JSON.stringify(message)]);
          added.push({ ...message, sessionId, seq });
          seqs.push(seq);
        }
        if (added.length > 0) {
          await tx.run(`UPDATE sessions SET last_seq = $2, updated_at = CASE WHEN updated_at > $3 THEN updated_at ELSE $3 END WHERE id = $1`, [sessionId, seq, Date.now()]);
        }
        return { added, seqs, lastSeq: seq };
      });
    },
    async listMessages({ namespace, sessionId, after, before, limit }) {
      if (!(await sessionIn(db, namespace, sessionId))) return null;
      let rows: Row[];
      let more: boolean;
      if (after !== undefined) {
        rows = await db.all(`SELECT seq, json FROM messages WHERE session_id = $1 AND seq > $2 ORDER BY seq ASC LIMIT $3`, [sessionId, after, limit + 1]);
        more = rows.length > limit;
        rows = rows.slice(0, limit);
      } else {
        const bound = before ?? Number.MAX_SAFE_INTEGER;
        rows = await db.all(`SELECT seq, json FROM messages WHERE session_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`, [sessionId, bound, limit + 1]);
        more = rows.length > limit;
        rows = rows.slice(0, limit).reverse();
      }
      return { messages: rows.map((r) => rowToMessage(r, sessionId)), more };
    },
    async findMessages({ namespace, sessionId, pieces, caseSensitive, after, before, limit }) {
      if (!(await sessionIn(db, namespace, sessionId))) return null;
      const like = likePattern({ pieces, caseSensitive });
      // ILIKE: PostgreSQL's LIKE matches case; SQLite's LIKE ignores ASCII case already.
      const op = db.dialect === 'postgres' && !caseSensitive ? 'ILIKE' : 'LIKE';
      const rows = await db.all(
        `SELECT seq, json FROM messages WHERE session_id = $1 AND seq > $2 AND seq < $3 AND json ${op} $4 ESCAPE '\\' ORDER BY seq DESC LIMIT $5`,
        [sessionId, after, before, like, limit],
      );
      return rows.map((r) => rowToMessage(r, sessionId));
    },
  };
}

/** A LIKE pattern every stored message holding the pieces in order matches: each piece as JSON
 *  writes it inside a string, `%`, `_` and `\` escaped. Case-insensitive, a piece with a non-ASCII
 *  character is left out (neither database folds its case in a LIKE without a collation): the
 *  pattern only narrows, the caller's test decides. */
export function likePattern(o: { pieces: readonly string[]; caseSensitive: boolean }): string {
  const kept = o.pieces.filter((p) => o.caseSensitive || /^[\x00-\x7f]*$/.test(p));
  const escaped = kept.map((p) => JSON.stringify(p).slice(1, -1).replace(/[\\%_]/g, (c) => `\\${c}`));
  return `%${escaped.join('%')}%`;
}
