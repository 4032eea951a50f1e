// -session-workspace.tsx: the lazily loaded half of the Changes and Files routes: the session the
// layout already has, handed to the workspace view with the tab and path from the address.
import { getRouteApi } from '@tanstack/react-router';
import { useSession } from '../lib/queries.ts';
import { WorkspaceView } from '../features/workspace/workspace-view.tsx';
import { StartReviewButton } from '../features/reviews/start-review.tsx';

const sessionRoute = getRouteApi('/_authed/sessions/$sessionId');
const changesRoute = getRouteApi('/_authed/sessions/$sessionId/changes');
const filesRoute = getRouteApi('/_authed/sessions/$sessionId/files');

export function SessionChanges() {
  const { sessionId } = sessionRoute.useParams();
  const session = useSession(sessionId);
  const { file, against } = changesRoute.useSearch();
  return session.data ? (
    <WorkspaceView key={session.data.id} session={session.data} view={{ tab: 'changes', file: file ?? null, against: against ?? 'head' }} changesActions={<StartReviewButton session={session.data} />} />
  ) : null;
}

export function SessionFiles() {
  const { sessionId } = sessionRoute.useParams();
  const session = useSession(sessionId);
  const { dir, file, line } = filesRoute.useSearch();
  return session.data ? <WorkspaceView key={session.data.id} session={session.data} view={{ tab: 'files', dir: dir ?? '', file: file ?? null, line: line ?? null }} /> : null;
}
