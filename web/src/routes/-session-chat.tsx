// -session-chat.tsx: the lazily loaded half of the chat route (the "-" prefix marks a file that is
// not a route of its own). It reads the session the layout already has and renders the chat.
import { useCallback, useMemo } from 'react';
import { getRouteApi, useNavigate, useRouter } from '@tanstack/react-router';
import { useSession } from '../lib/queries.ts';
import { pathInSession } from '../lib/format.ts';
import { ChatView } from '../features/chat/chat-view.tsx';
import { SessionEndNotice } from '../features/lifecycle/resume-controls.tsx';
import { ReviewCards } from '../features/reviews/review-card.tsx';
import { LimitBanner } from '../features/sessions/limit-banner.tsx';
import type { ShowInTerminal } from '../features/chat/show-in-terminal.ts';
import type { WorkspaceLinks, WorkspaceTarget } from '../features/chat/workspace-links.ts';
import { ComposerVoiceContext } from '../lib/voice-slot.ts';
import { lazyPart } from '../lib/ui/lazy-part.tsx';

// Dictation and hands-free: loaded when a chat's composer first shows, never on the first load.
const loadVoiceControls = () => import('../features/voice/voice-controls.tsx');
const VoiceControls = lazyPart(() => loadVoiceControls().then((m) => m.VoiceControls));

/** Ahead of a chat's first composer (the session route's preloadSessionScreen). */
export async function preloadVoiceControls(): Promise<void> {
  await loadVoiceControls();
}

const sessionRoute = getRouteApi('/_authed/sessions/$sessionId');
const chatRoute = getRouteApi('/_authed/sessions/$sessionId/');

export function SessionChat() {
  const { sessionId } = sessionRoute.useParams();
  const session = useSession(sessionId);
  const navigate = useNavigate();
  // Find's result: the message to scroll to (one object per place, so the list jumps once).
  const { at, block, tool } = chatRoute.useSearch();
  const found = useMemo(() => (at !== undefined && block !== undefined ? { seq: at, block, tool: tool ?? null } : null), [at, block, tool]);
  // A tool card's "Show in terminal": the terminal tab, opened at the call's moment.
  const showInTerminal = useCallback<ShowInTerminal>(
    ({ moment, tool, hint }) =>
      void navigate({ to: '/sessions/$sessionId/terminal', params: { sessionId }, search: { run: moment.run, start: moment.start, end: moment.end, tool, hint } }),
    [navigate, sessionId],
  );
  // A tool card's file: Files opens it, Changes shows its diff (paths inside the session only).
  const router = useRouter();
  const cwd = session.data?.cwd ?? null;
  const workspaceLinks = useMemo<WorkspaceLinks | null>(() => {
    if (cwd === null) return null;
    const location = ({ kind, path }: WorkspaceTarget) =>
      kind === 'diff'
        ? ({ to: '/sessions/$sessionId/changes', params: { sessionId }, search: { file: path } } as const)
        : ({ to: '/sessions/$sessionId/files', params: { sessionId }, search: { file: path } } as const);
    return {
      inSession: (path) => pathInSession(path, cwd),
      href: (target) => router.buildLocation(location(target)).href,
      open: (target) => void navigate(location(target)),
    };
  }, [cwd, navigate, router, sessionId]);
  // Keyed by id: a chat's state must never carry over to the next session opened in place.
  return session.data ? (
    <ComposerVoiceContext.Provider value={VoiceControls}>
      <ChatView
        key={session.data.id}
        session={session.data}
        showInTerminal={showInTerminal}
        workspaceLinks={workspaceLinks}
        found={found}
        endNotice={<SessionEndNotice session={session.data} />}
        cards={
          <>
            <LimitBanner session={session.data} />
            <ReviewCards session={session.data} />
          </>
        }
      />
    </ComposerVoiceContext.Provider>
  ) : null;
}
