// files-view.tsx: the session's directory: one directory's entries (`dir`), or one file with line
// numbers and syntax colour (`file`), each under a breadcrumb back to the top. A text file read whole
// of a live session may be edited (file-editor.tsx) unless it grants permissions or runs code. A link that
// leads outside the session's directory is named and marked, never opened. Refetched at the end of
// each turn and by the refresh button.
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { DirEntry, Session, WorkspaceFile } from '@tether/shared';
import { editRefusal, isFinalStatus } from '@tether/shared/wire';
import { hubApi } from '../../lib/hub.ts';
import { formatBytes, pathBasename } from '../../lib/format.ts';
import { queryKeys } from '../../lib/queries.ts';
import { IconChevron, IconFile, IconFolder } from '../../lib/ui/icons.tsx';
import { Loading } from './changes-view.tsx';
import { CodeView } from './code-view.tsx';
import { FileEditor } from './file-editor.tsx';
import { RefreshButton } from './refresh-button.tsx';
import { useTurnEnd } from './use-turn-end.ts';
import { WorkspaceProblem } from './workspace-problem.tsx';

/** `line`: scroll to it and light it up once the file is shown (Find's result). */
export function FilesView({ session, dir, file, line = null }: { session: Session; dir: string; file: string | null; line?: number | null }) {
  return file !== null ? <FileView session={session} path={file} line={line} /> : <DirectoryView session={session} path={dir} />;
}

function DirectoryView({ session, path }: { session: Session; path: string }) {
  return (
    <ReadView session={session} path={path} what="folder" read={() => hubApi.listFiles({ sessionId: session.id, path })} queryKey={queryKeys.directory(session.id, path)}>
      {(listing) =>
        listing.entries.length === 0 ? (
          <p className="workspace-empty">This folder is empty.</p>
        ) : (
          <>
            <ul className="file-list" aria-label={`Contents of ${path || pathBasename(session.cwd)}`}>
              {listing.entries.map((entry) => (
                <li key={entry.name}>
                  <Entry session={session} parent={path} entry={entry} />
                </li>
              ))}
            </ul>
            {listing.total > listing.entries.length ? <p className="diff-note">…and {(listing.total - listing.entries.length).toLocaleString()} more entries not listed.</p> : null}
          </>
        )
      }
    </ReadView>
  );
}

function Entry({ session, parent, entry }: { session: Session; parent: string; entry: DirEntry }) {
  const path = parent ? `${parent}/${entry.name}` : entry.name;
  const name = (
    <span className="file-name">
      {entry.name}
      {entry.link ? <span className="file-link-mark"> (link)</span> : null}
    </span>
  );
  if (entry.outside || entry.kind === 'other') {
    return (
      <div className="file-entry file-entry-off">
        <IconFile size={18} className="file-icon" />
        <span className="file-text">
          {name}
          <span className="file-meta">{entry.outside ? "Leads outside the session's folder: not opened" : 'Not a file or folder'}</span>
        </span>
      </div>
    );
  }
  if (entry.kind === 'dir') {
    return (
      <Link className="file-entry" to="/sessions/$sessionId/files" params={{ sessionId: session.id }} search={{ dir: path }}>
        <IconFolder size={18} className="file-icon file-icon-dir" />
        {name}
        <IconChevron size={16} className="file-go" />
      </Link>
    );
  }
  return (
    <Link className="file-entry" to="/sessions/$sessionId/files" params={{ sessionId: session.id }} search={{ file: path }}>
      <IconFile size={18} className="file-icon" />
      {name}
      <span className="file-meta">{entry.size !== null ? formatBytes(entry.size) : ''}</span>
    </Link>
  );
}

function FileView({ session, path, line }: { session: Session; path: string; line: number | null }) {
  const [editing, setEditing] = useState(false);
  // A file changed under the viewer is read again at a turn's end; never under an open editor.
  return (
    <ReadView session={session} path={path} what="file" read={() => hubApi.readFile({ sessionId: session.id, path })} queryKey={queryKeys.file(session.id, path)} paused={editing}>
      {(file) =>
        file.binary || file.text === null ? (
          <p className="workspace-empty">Binary file ({formatBytes(file.size)}): not shown.</p>
        ) : editing && file.hash ? (
          <FileEditor sessionId={session.id} path={path} text={file.text} hash={file.hash} onClose={() => setEditing(false)} />
        ) : (
          <>
            <EditOffer session={session} path={path} file={file} onEdit={() => setEditing(true)} />
            <CodeView path={path} text={file.text} line={line} />
            {file.truncated ? <p className="diff-note">Showing the first {formatBytes(file.text.length)} of {formatBytes(file.size)}.</p> : null}
          </>
        )
      }
    </ReadView>
  );
}

/** "Edit" for a text file read whole of a live session, or why it cannot be edited from here. */
function EditOffer({ session, path, file, onEdit }: { session: Session; path: string; file: WorkspaceFile; onEdit: () => void }) {
  if (isFinalStatus(session.status)) return null;
  const refused = editRefusal(path);
  const why = refused
    ? `This file ${refused}.`
    : file.truncated
      ? 'Too large to edit from here.'
      : !file.hash
        ? "The session's machine runs a tether too old to edit files."
        : null;
  return (
    <div className="file-edit-offer">
      {why ? (
        <p className="file-edit-why">{why}</p>
      ) : (
        <button type="button" className="button" onClick={onEdit}>
          Edit
        </button>
      )}
    </div>
  );
}

/** One read of the session's folder (a folder's entries, a file) under its breadcrumb and refresh
 *  button: read again at the end of each turn, and said while it reads or when it fails. */
function ReadView<T>(o: { session: Session; path: string; what: 'folder' | 'file'; queryKey: readonly unknown[]; read: () => Promise<T>; children: (data: T) => ReactNode; paused?: boolean }) {
  const query = useQuery({ queryKey: o.queryKey, queryFn: o.read, staleTime: 0, ...(o.paused ? { refetchOnWindowFocus: false, refetchOnReconnect: false } : {}) });
  useTurnEnd(o.session.status, () => {
    if (!o.paused) void query.refetch();
  });
  const Noun = o.what === 'folder' ? 'Folder' : 'File';
  return (
    <div className="workspace-body">
      <div className="workspace-bar">
        <Breadcrumb session={o.session} path={o.path} file={o.what === 'file'} />
        <RefreshButton label={`Refresh ${o.what}`} busy={query.isFetching} onClick={() => void query.refetch()} />
      </div>
      {query.isPending ? (
        <Loading text={`Reading the ${o.what}…`} />
      ) : query.isError ? (
        <WorkspaceProblem title={`${Noun} unavailable`} error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        o.children(query.data)
      )}
    </div>
  );
}

/** session folder / a / b (/ file): every part but the last is a link up. */
function Breadcrumb({ session, path, file = false }: { session: Session; path: string; file?: boolean }) {
  const parts = path ? path.split('/') : [];
  const crumbs = [{ label: pathBasename(session.cwd) || session.cwd, dir: '' }, ...parts.map((part, i) => ({ label: part, dir: parts.slice(0, i + 1).join('/') }))];
  return (
    <nav className="breadcrumb" aria-label={file ? 'File path' : 'Folder path'}>
      <ol>
        {crumbs.map((crumb, i) => (
          <li key={crumb.dir}>
            {i < crumbs.length - 1 ? (
              <Link to="/sessions/$sessionId/files" params={{ sessionId: session.id }} search={crumb.dir ? { dir: crumb.dir } : {}}>
                {crumb.label}
              </Link>
            ) : (
              <span aria-current="page">{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

