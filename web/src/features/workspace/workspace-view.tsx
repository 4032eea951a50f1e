// workspace-view.tsx: a session's working directory as its runner sees it, read-only: two tabs,
// Changes (the diff against HEAD) and Files (browse, open a file). Everything here is read through
// the hub from the runner on the session's machine; a share link gets none of it. This module and
// its grammar chunks load only when the view is opened (React.lazy in the routes).
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { Session } from '@tether/shared';
import type { ChangesAgainst } from '../../lib/hub.ts';
import { ChangesView } from './changes-view.tsx';
import { FilesView } from './files-view.tsx';
import './workspace.css';

export type WorkspaceTab = { tab: 'changes'; file: string | null; against: ChangesAgainst } | { tab: 'files'; dir: string; file: string | null; line?: number | null };

/** `changesActions`: what the route adds on the Changes tab (Review: features do not import each other). */
export function WorkspaceView({ session, view, changesActions = null }: { session: Session; view: WorkspaceTab; changesActions?: ReactNode }) {
  return (
    <div className="workspace">
      <nav className="workspace-tabs" aria-label="Changes and files">
        <Link to="/sessions/$sessionId/changes" params={{ sessionId: session.id }} className="workspace-tab" aria-current={view.tab === 'changes' ? 'page' : undefined}>
          Changes
        </Link>
        <Link to="/sessions/$sessionId/files" params={{ sessionId: session.id }} className="workspace-tab" aria-current={view.tab === 'files' ? 'page' : undefined}>
          Files
        </Link>
      </nav>
      {view.tab === 'changes' && changesActions ? <div className="workspace-actions">{changesActions}</div> : null}
      <div className="workspace-scroll">
        {view.tab === 'changes' ? <ChangesView session={session} focus={view.file} against={view.against} /> : <FilesView session={session} dir={view.dir} file={view.file} line={view.line ?? null} />}
      </div>
    </div>
  );
}
