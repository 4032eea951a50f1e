// resume-controls.tsx: Resume for an ended or failed session. In the header an icon (a phone's
// header has no room for words beside the title); at
// the foot of the chat (where the composer was) the end notice: what happened, Resume (as it ran)
// and, for a headless session, Resume in a terminal (claude's TUI, so the terminal tab works too).
// Disabled with the reason in words when the hub would refuse (machine offline, started at a desk,
// nothing to resume). On success the hub's session:updated brings this same page back to life.
import { useId } from 'react';
import type { LaunchKind, Session } from '@tether/shared';
import { useMachines } from '../../lib/queries.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import './lifecycle.css';
import { IconResume } from '../../lib/ui/icons.tsx';
import { resumeSession, useLifecycle } from './lifecycle-store.ts';
import { resumability, resumeCarries } from './resumability.ts';

function useResumability(session: Session) {
  const machines = useMachines();
  return resumability(session, machines.data);
}

export function ResumeButton({ session }: { session: Session }) {
  const can = useResumability(session);
  const lifecycle = useLifecycle(session.id);
  const reasonId = useId();
  const resuming = lifecycle.kind === 'resuming';
  return (
    <>
      <button
        type="button"
        className="icon-button resume-button"
        aria-label="Resume"
        disabled={!can.ok || resuming}
        title={can.ok ? `Resume on ${can.machineName}` : can.reason}
        aria-describedby={can.ok ? undefined : reasonId}
        onClick={() => void resumeSession(session)}
      >
        {resuming ? <Spinner size={18} label="Resuming" /> : <IconResume size={22} />}
      </button>
      {can.ok ? null : (
        <span id={reasonId} className="sr-only">
          {can.reason}
        </span>
      )}
    </>
  );
}

function endedText(session: Session): string {
  if (session.status === 'failed') return `This session failed${session.failureReason ? `: ${session.failureReason}` : '.'}`;
  return 'This session has ended.';
}

/** The chat's foot once the session is over. */
export function SessionEndNotice({ session }: { session: Session }) {
  const can = useResumability(session);
  const lifecycle = useLifecycle(session.id);
  const reasonId = useId();
  const resuming = lifecycle.kind === 'resuming' ? lifecycle.launchKind : null;
  const carries = resumeCarries(session);
  const option = (launchKind: LaunchKind, label: string, primary: boolean) => (
    <button
      type="button"
      className={`button ${primary ? 'button-primary' : ''}`}
      disabled={!can.ok || resuming !== null}
      aria-describedby={can.ok ? undefined : reasonId}
      onClick={() => void resumeSession(session, launchKind)}
    >
      {resuming === launchKind ? <Spinner size={16} /> : primary ? <IconResume size={16} /> : null}
      {resuming === launchKind ? 'Resuming…' : label}
    </button>
  );
  return (
    <section className="composer session-end-notice" aria-label="Session ended">
      <p className="composer-note">{endedText(session)}</p>
      <div className="session-end-actions">
        {option(session.launchKind, 'Resume', true)}
        {session.launchKind === 'headless' ? option('pty', 'Resume in a terminal', false) : null}
      </div>
      {can.ok ? (
        <p className="session-end-hint">
          Same conversation, on {can.machineName}.{carries ? <> {carries}</> : null}
        </p>
      ) : (
        <p id={reasonId} className="session-end-hint">
          {can.reason}
        </p>
      )}
      {lifecycle.kind === 'failed' && lifecycle.action === 'resume' ? (
        <p className="composer-error" role="alert">
          Couldn't resume: {lifecycle.message}
        </p>
      ) : null}
    </section>
  );
}
