// found-list.tsx: "Found on this machine": the conversations the machine's daemon found that tether
// did not run, a page at a time (GET /api/machines/:id/outside, newest first), searched by title and
// folder (never content). Load more asks for the next page; a search starts again from the first.
// The daemon reports on its own schedule, so the list is read again every little while it is open.
import { useEffect, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { OUTSIDE_QUERY_CHARS, type Machine } from '@tether/shared';
import { hubApi } from '../../lib/hub.ts';
import { queryKeys } from '../../lib/queries.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { useNow } from '../../lib/ui/use-now.ts';
import { FoundRow } from './found-row.tsx';

/** Rows per page: a phone's few screens. */
const PAGE = 30;
/** A search is sent once typing pauses this long. */
const SEARCH_PAUSE_MS = 250;
/** How often an open list is read again (the daemon's reports have no fact of their own). */
const REFRESH_MS = 15_000;

function useSettled(text: string): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return settled;
}

export function FoundList({ machine }: { machine: Machine }) {
  const now = useNow();
  const [typed, setTyped] = useState('');
  const q = useSettled(typed.trim());
  const found = useInfiniteQuery({
    queryKey: queryKeys.outside(machine.id, q),
    queryFn: ({ pageParam }) => hubApi.listOutside({ machineId: machine.id, q, offset: pageParam, limit: PAGE }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.more ? pages.reduce((n, page) => n + page.sessions.length, 0) : undefined),
    refetchInterval: REFRESH_MS,
  });
  const rows = found.data?.pages.flatMap((page) => page.sessions) ?? [];
  const total = found.data?.pages.at(-1)?.total ?? null;

  let body;
  if (found.error && !found.data) {
    body = (
      <div className="list-message" role="alert">
        <p>Couldn't load what was found: {found.error.message}</p>
        <button type="button" className="button" onClick={() => void found.refetch()}>
          Try again
        </button>
      </div>
    );
  } else if (!found.data) {
    body = (
      <div className="list-message">
        <Spinner size={22} label="Loading what was found" />
      </div>
    );
  } else if (rows.length === 0) {
    body = (
      <p className="list-message">
        {q ? `Nothing found matches “${q}”.` : `Nothing found yet. ${machine.online ? 'The daemon reports what it finds within a few seconds.' : 'The daemon reports once it is back online.'}`}
      </p>
    );
  } else {
    body = (
      <>
        <ul className="found-rows" aria-label={`Found on ${machine.name}`}>
          {rows.map((entry) => (
            <FoundRow key={entry.agentSessionId} entry={entry} machine={machine} now={now} />
          ))}
        </ul>
        {found.hasNextPage ? (
          <button type="button" className="button found-more" disabled={found.isFetchingNextPage} onClick={() => void found.fetchNextPage()}>
            {found.isFetchingNextPage ? <Spinner size={14} /> : null}
            {found.isFetchingNextPage ? 'Loading…' : `Load more (${(total ?? rows.length) - rows.length} left)`}
          </button>
        ) : null}
      </>
    );
  }

  return (
    <>
      <input
        type="search"
        className="field-input found-search"
        placeholder="Search title or folder"
        aria-label="Search found conversations"
        maxLength={OUTSIDE_QUERY_CHARS}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
      />
      <p className="found-count" role="status">
        {total === null ? '' : q ? `${total} matching` : `${total} found, newest first`}
      </p>
      {body}
    </>
  );
}
