// changes-view.tsx: the session's working tree against HEAD (or, for a session in a worktree of its
// own, against where its branch started: changes-scope.tsx), as its runner sees it: a summary
// (branch, commit, files, lines), then every changed file with its diff. Pages of diffs load as the
// reader asks for more; `focus` (a tool card's "Show diff") loads pages until that file is there and
// scrolls to it. Refetched at the end of each turn and by the refresh button.
import { useEffect, useMemo, useRef } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { FileDiff, Session, WorkspaceChanges } from '@tether/shared';
import { hubApi, type ChangesAgainst } from '../../lib/hub.ts';
import { queryKeys } from '../../lib/queries.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { ChangeCounts, DiffFile, StatusLetter } from './diff-file.tsx';
import { RefreshButton } from './refresh-button.tsx';
import { useTurnEnd } from './use-turn-end.ts';
import { WorkspaceProblem } from './workspace-problem.tsx';
import { GitPanel } from './git-panel.tsx';
import { branchBaseOf, ChangesScope } from './changes-scope.tsx';

type GitChanges = Extract<WorkspaceChanges, { git: true }>;

export function ChangesView({ session, focus, against: asked }: { session: Session; focus: string | null; against: ChangesAgainst }) {
  // A stale `?against=base` (the worktree was removed, or none was recorded) reads as HEAD.
  const against: ChangesAgainst = asked === 'base' && branchBaseOf(session) ? 'base' : 'head';
  const query = useInfiniteQuery({
    queryKey: queryKeys.changes(session.id, against),
    queryFn: ({ pageParam }) => hubApi.getChanges({ sessionId: session.id, cursor: pageParam, against }),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.git && last.next !== null ? last.next : undefined),
    staleTime: 0,
  });
  useTurnEnd(session.status, () => void query.refetch());

  const pages = query.data?.pages ?? [];
  const first = pages[0];
  // The newest page's list: a refetch may have moved files between pages.
  const latest = pages.findLast((p): p is GitChanges => p.git);
  const diffs = useMemo(() => new Map(pages.flatMap((p) => (p.git ? p.diffs : [])).map((d): [string, FileDiff] => [d.path, d])), [pages]);

  // A file to show: load pages until it is there (a tool card named it), then scroll to it once.
  const scrolled = useRef<string | null>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (!focus || !latest || scrolled.current === focus) return;
    if (!diffs.has(focus)) {
      if (latest.files.some((f) => f.path === focus) && hasNextPage && !isFetchingNextPage) void fetchNextPage();
      return;
    }
    if (scrollToFile(focus)) scrolled.current = focus;
  }, [focus, latest, diffs, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const refresh = <RefreshButton label="Refresh changes" busy={query.isFetching} onClick={() => void query.refetch()} />;
  const scope = <ChangesScope session={session} against={against} />;
  if (query.isPending) return <Loading text="Reading the changes…" />;
  if (query.isError && !first) return <WorkspaceProblem title="Changes unavailable" error={query.error} onRetry={() => void query.refetch()} />;
  if (first && !first.git) {
    return (
      <div className="workspace-body">
        {scope}
        <div className="workspace-bar">
          <p className="workspace-summary">No git repository</p>
          {refresh}
        </div>
        <p className="workspace-empty">{capitalize(first.reason)}, so there is nothing to compare with. The Files tab shows what is there.</p>
      </div>
    );
  }
  if (!latest) return null;
  const additions = latest.files.reduce((n, f) => n + (f.additions ?? 0), 0);
  const deletions = latest.files.reduce((n, f) => n + (f.deletions ?? 0), 0);
  const since = latest.against ?? null;
  return (
    <div className="workspace-body">
      {scope}
      <div className="workspace-bar">
        <p className="workspace-summary">
          <span className="workspace-branch">{latest.branch ?? 'detached'}</span>
          {since ? (
            <span className="workspace-head">
              {' '}
              · since {since.ref ? `${since.ref} ` : ''}
              {since.commit.slice(0, 7)}
            </span>
          ) : latest.head ? (
            <span className="workspace-head"> · {latest.head}</span>
          ) : (
            <span className="workspace-head"> · no commit yet</span>
          )}
          <span className="workspace-totals">
            {' '}
            · {latest.total === 1 ? '1 file' : `${latest.total.toLocaleString()} files`}
            {latest.total > 0 ? (
              <>
                {' '}
                <span className="change-add">+{additions.toLocaleString()}</span> <span className="change-del">−{deletions.toLocaleString()}</span>
              </>
            ) : null}
          </span>
        </p>
        {refresh}
      </div>
      {query.isError ? <WorkspaceProblem title="Could not refresh" error={query.error} /> : null}
      {against === 'base' && !since ? <p className="diff-note">tether on the session's machine is older than this view: these are the changes not committed yet.</p> : null}
      <GitPanel session={session} />
      {latest.files.length === 0 ? (
        <p className="workspace-empty">
          {since
            ? `No changes: the branch matches ${since.ref ? `${since.ref} at` : 'commit'} ${since.commit.slice(0, 7)}.`
            : `No changes: the working tree matches ${latest.head ? `commit ${latest.head}` : 'the index'}.`}
        </p>
      ) : (
        <>
          {latest.files.length > 1 ? (
            <nav className="change-list" aria-label="Changed files">
              <ul>
                {latest.files.map((file) => (
                  <li key={file.path}>
                    {/* The address names the file (shareable, back-button friendly); the effect above
                        loads the page that holds it and scrolls there. */}
                    <Link to="/sessions/$sessionId/changes" params={{ sessionId: session.id }} search={{ file: file.path, ...(against === 'base' ? { against } : {}) }} replace onClick={() => scrollToFile(file.path)}>
                      <StatusLetter status={file.status} />
                      <span className="change-list-path">{file.path}</span>
                      <ChangeCounts file={file} />
                    </Link>
                  </li>
                ))}
              </ul>
              {latest.total > latest.files.length ? <p className="diff-note">…and {(latest.total - latest.files.length).toLocaleString()} more files not listed.</p> : null}
            </nav>
          ) : null}
          {latest.files
            .filter((f) => diffs.has(f.path))
            .map((file) => (
              <DiffFile key={file.path} sessionId={session.id} file={file} diff={diffs.get(file.path) ?? null} focused={file.path === focus} />
            ))}
          {hasNextPage ? (
            <div className="workspace-more">
              <button type="button" className="button" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                {isFetchingNextPage ? 'Loading…' : `Show more files (${(latest.files.length - diffs.size).toLocaleString()} left)`}
              </button>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

function scrollToFile(path: string): boolean {
  const section = document.querySelector(`.diff-file[data-path="${CSS.escape(path)}"]`);
  section?.scrollIntoView({ block: 'start' });
  return section !== null;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function Loading({ text }: { text: string }) {
  return (
    <div className="workspace-loading">
      <Spinner size={20} label={text} />
      <span aria-hidden="true">{text}</span>
    </div>
  );
}
