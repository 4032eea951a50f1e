// backend.ts: where the phone cache's sealed records live: IndexedDB in a browser (one database,
// one record per session, indexed by when it was saved so the oldest go first). Only ciphertext,
// its IV, the session id and the time are written; the key never is.
// Invariant: deletePhoneCache() closes this page's connection first (an open one blocks the delete),
// and every other tab closes its own when asked (onversionchange), so a sign-out's delete goes through.
import type { Sealed } from './sealed.ts';

export type CacheRecord = Sealed & { id: string; savedAt: number };

/** What the cache needs of its storage; tests give it a Map. */
export type CacheBackend = {
  get(id: string): Promise<CacheRecord | undefined>;
  put(record: CacheRecord): Promise<void>;
  /** Every record's id and time, oldest first (no ciphertext read). */
  ages(): Promise<Array<{ id: string; savedAt: number }>>;
  remove(ids: readonly string[]): Promise<void>;
};

const DB_NAME = 'tether-phone-cache';
const STORE = 'chats';
const BY_AGE = 'savedAt';

let opening: Promise<IDBDatabase> | null = null;

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function open(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id' }).createIndex(BY_AGE, BY_AGE);
    request.onsuccess = () => {
      const db = request.result;
      // Another tab deletes the database (a sign-out there): let it.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'));
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

async function inStore<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => Promise<T>): Promise<T> {
  const db = await open();
  const tx = db.transaction(STORE, mode);
  const result = await work(tx.objectStore(STORE));
  if (mode === 'readwrite') {
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write failed'));
    });
  }
  return result;
}

/** Opens the database ahead of the first read (the key's arrival): a tap then pays no open. */
export function warmPhoneCache(): void {
  if (typeof indexedDB !== 'undefined') open().catch(() => {});
}

export const indexedDbBackend: CacheBackend = {
  get: (id) => inStore('readonly', (store) => done(store.get(id) as IDBRequest<CacheRecord | undefined>)),
  put: (record) => inStore('readwrite', async (store) => void store.put(record)),
  ages: () =>
    inStore('readonly', (store) => {
      const out: Array<{ id: string; savedAt: number }> = [];
      const cursor = store.index(BY_AGE).openKeyCursor();
      return new Promise((resolve, reject) => {
        cursor.onsuccess = () => {
          const at = cursor.result;
          if (!at) return resolve(out);
          out.push({ id: String(at.primaryKey), savedAt: Number(at.key) });
          at.continue();
        };
        cursor.onerror = () => reject(cursor.error ?? new Error('IndexedDB cursor failed'));
      });
    }),
  remove: (ids) => inStore('readwrite', async (store) => ids.forEach((id) => store.delete(id))),
};

/** Deletes the whole database (sign-in, sign-out, a namespace change, a revoked login). */
export async function deletePhoneCache(): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  const db = opening ? await opening.catch(() => null) : null;
  opening = null;
  db?.close();
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(DB_NAME);
    // Blocked by a tab that has not closed yet: it will on versionchange, and the delete then runs.
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}
