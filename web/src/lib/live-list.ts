// live-list.ts: a list the REST read fills and socket facts keep, merged when a read returns.
// A read answers for the moment the hub ran it; facts heard while it was under way are newer:
//
//   read starts (mark) ── fact: a record changes ──┐ ── fact: a new record ──┐ ── read returns
//                                                   └ newer copy stays        └ record stays
//
// Neither may be undone by the read's answer (a session registered just after a reconnect's
// refetch left vanished from the list for good: no later fact would bring it back).

type LiveListOptions<T> = {
  id: (record: T) => string;
  /** The record's version: of two copies, the higher one stands. Without one, a copy a fact brought
   *  during the read stands (facts arrive in order: a change the read saw and the fact did not is
   *  followed by a fact of its own). */
  at?: (record: T) => number;
};

/** The newer of a fetched record and the copy a fact put in the cache while the fetch was under way
 *  (`at`: its version): a refetch after a reconnect must not put back the state a fact has since
 *  replaced. */
export function newer<T>(fetched: T, cached: T | undefined, at: (record: T) => number): T {
  return cached && at(cached) > at(fetched) ? cached : fetched;
}

export type LiveList<T> = {
  /** A fact put this record in the cached list (call it for every fact, added or changed). */
  heard: (record: T) => void;
  /** Where the facts stand as a read starts; give it back to `merge`. */
  mark: () => number;
  /** The read's answer, each record the newer of its two copies, plus the records only facts heard
   *  after `since` brought (the read ran before they existed), first as a fact puts them. */
  merge: (options: { fetched: T[]; cached: T[] | undefined; since: number }) => T[];
};

export function createLiveList<T>({ id, at }: LiveListOptions<T>): LiveList<T> {
  let facts = 0;
  const heardAt = new Map<string, number>();
  return {
    heard: (record) => void heardAt.set(id(record), ++facts),
    mark: () => facts,
    merge: ({ fetched, cached = [], since }) => {
      const byId = new Map(cached.map((record) => [id(record), record]));
      const heardDuring = (record: T) => (heardAt.get(id(record)) ?? 0) > since;
      const merged = fetched.map((record) => {
        const copy = byId.get(id(record));
        if (!copy) return record;
        if (at) return newer(record, copy, at);
        return heardDuring(copy) ? copy : record;
      });
      const fetchedIds = new Set(fetched.map(id));
      const newcomers = cached.filter((record) => !fetchedIds.has(id(record)) && heardDuring(record));
      return [...newcomers, ...merged];
    },
  };
}
