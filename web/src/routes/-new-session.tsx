// -new-session.tsx: the lazily loaded half of `/new`: the screen around the new-session form. A
// started session opens at once (its terminal, for a PTY session).
import { useNavigate } from '@tanstack/react-router';
import { useMachines, useSessions } from '../lib/queries.ts';
import { BackHeader } from '../lib/ui/back-header.tsx';
import { NewSessionForm } from '../features/sessions/new-session-form.tsx';
import '../features/sessions/session-screen.css';

export function NewSession() {
  const navigate = useNavigate();
  const { data: machines = [] } = useMachines();
  const { data: sessions = [] } = useSessions();
  return (
    <div className="session-screen new-session-screen">
      <BackHeader title="New session" />
      <div className="new-session-body">
        <NewSessionForm
          machines={machines}
          sessions={sessions}
          onCancel={() => void navigate({ to: '/' })}
          onStarted={(session) =>
            void navigate(
              session.launchKind === 'pty'
                ? { to: '/sessions/$sessionId/terminal', params: { sessionId: session.id } }
                : { to: '/sessions/$sessionId', params: { sessionId: session.id } },
            )
          }
        />
      </div>
    </div>
  );
}
