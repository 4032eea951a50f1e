// _authed.tsx: the guard and shell of every signed-in screen. No login → /login (keeping where
// the user was going); a login lost later (logout, expiry, revoked token) → /login too.
// The shell is list + detail: side by side on a wide screen, one at a time on a phone.
import { useEffect, useState } from 'react';
import { Outlet, createRoute, redirect, useRouter, useRouterState } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { awaitLinkLogin, getLogin, hasFragmentCredential, onLoginChange } from '../lib/hub.ts';
import { machinesQuery, sessionsQuery, useHubLiveUpdates, useMachines, useSessions } from '../lib/queries.ts';
import { ConnectionToast } from '../lib/ui/connection-toast.tsx';
import { SessionList } from '../features/sessions/session-list.tsx';
import { WORKTREE_PARTS } from '../features/worktrees/parts.tsx';
import { WorktreeSlotContext } from '../lib/worktree-slot.ts';
import { markFirstScreen, useAfterFirstScreen } from '../lib/first-screen.ts';
import { lazyPart } from '../lib/ui/lazy-part.tsx';
import { Route as rootRoute } from './__root.tsx';

// The notifications switch (and the push code behind it) loads when the account menu first opens.
const PushToggle = lazyPart(() => import('../pwa/push-toggle.tsx').then((m) => m.PushToggle));
// The Devices item loads with the account menu too; its dialog when it is opened.
const DevicesMenuItem = lazyPart(() => import('../features/devices/devices-menu-item.tsx').then((m) => m.DevicesMenuItem));
const SchedulesMenuItem = lazyPart(() => import('../features/schedules/schedules-menu-item.tsx').then((m) => m.SchedulesMenuItem));
const DevicesDialog = lazyPart(() => import('../features/devices/devices-dialog.tsx').then((m) => m.DevicesDialog));
// Archive's question about live reviews loads when it is first asked.
const RuleProposals = lazyPart(() => import('../features/rules/rule-proposals.tsx').then((m) => m.RuleProposals));
const ArchiveReviewsQuestion = lazyPart(() => import('../features/reviews/end-question.tsx').then((m) => m.ArchiveReviewsQuestion));

/** A session's chat tab (not its terminal, files or changes). */
const CHAT_PATH = /^\/sessions\/[^/]+\/?$/;

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  id: '_authed',
  beforeLoad: async ({ location, context }) => {
    // A QR link's exchange already under way (main.tsx): wait for it here rather than drawing the
    // login screen (its code, its render) only to hand it the same answer.
    await awaitLinkLogin();
    // A QR link opened while signed in still signs in with its code (it may be another namespace).
    if (!getLogin() || hasFragmentCredential()) {
      const target = location.href === '/' ? undefined : location.href;
      throw redirect({ to: '/login', search: target ? { redirect: target } : {} });
    }
    // The list's data goes out now, not after the shell's first render (a slow phone's CPU takes a
    // while to get there); once there, later navigations leave it to the socket's facts.
    const client = context.queryClient;
    if (client.getQueryData(sessionsQuery.queryKey) === undefined) void client.prefetchQuery(sessionsQuery);
    if (client.getQueryData(machinesQuery.queryKey) === undefined) void client.prefetchQuery(machinesQuery);
  },
  component: AuthedShell,
});

function AuthedShell() {
  const router = useRouter();
  const queryClient = useQueryClient();
  useHubLiveUpdates();
  const sessions = useSessions();
  const machines = useMachines();
  const hasDetail = useRouterState({ select: (state) => state.location.pathname !== '/' });
  const inChat = useRouterState({ select: (state) => CHAT_PATH.test(state.location.pathname) });
  const [devicesOpen, setDevicesOpen] = useState(false);
  const firstScreenPainted = useAfterFirstScreen();

  // The list is the first screen unless a session's chat was opened (the chat says so itself).
  const listAnswered = sessions.data !== undefined || sessions.error !== null;
  useEffect(() => {
    if (listAnswered && !inChat) markFirstScreen();
  }, [listAnswered, inChat]);

  // Notifications already on in this browser are re-attached to this login (loaded only then).
  useEffect(() => {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    import('../pwa/push.ts').then((m) => m.renewPushSubscription()).catch(() => {});
  }, []);

  useEffect(() => {
    const leaveIfSignedOut = () => {
      if (getLogin()) return;
      queryClient.clear(); // nothing of the old namespace may show after the next login
      void router.navigate({ to: '/login', replace: true });
    };
    const stop = onLoginChange(leaveIfSignedOut);
    // A login lost before this shell listened is not missed: a session URL's loader asks the hub
    // before the shell has drawn, and on a slow phone its 401 (a revoked login) lands first.
    leaveIfSignedOut();
    return stop;
  }, [router, queryClient]);

  return (
    <WorktreeSlotContext.Provider value={WORKTREE_PARTS}>
      <div className="shell" data-detail={hasDetail ? 'open' : 'closed'}>
        <aside className="shell-list" aria-label="Sessions">
          <SessionList
            sessions={sessions.data}
            machines={machines.data}
            error={sessions.error}
            onRetry={() => void sessions.refetch()}
            menuExtra={
              <>
                <PushToggle />
                <SchedulesMenuItem />
                <DevicesMenuItem onOpen={() => setDevicesOpen(true)} />
              </>
            }
            // Its chunk, its render and its `rules:list` wait until the list or the opened session
            // is drawn: not what the person came for. (It needs no zod: shared/src/rule-words.ts.)
            asks={firstScreenPainted ? <RuleProposals /> : null}
            archiveQuestion={(question) => <ArchiveReviewsQuestion {...question} />}
          />
        </aside>
        <main className="shell-detail">
          <Outlet />
        </main>
        <ConnectionToast />
        {devicesOpen ? (
          <DevicesDialog
            onClose={() => {
              setDevicesOpen(false);
              // The menu that opened it is gone: focus goes back to the account button.
              requestAnimationFrame(() => document.querySelector<HTMLButtonElement>('.account-button')?.focus());
            }}
          />
        ) : null}
      </div>
    </WorktreeSlotContext.Provider>
  );
}
