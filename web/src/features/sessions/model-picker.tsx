// model-picker.tsx: the session's model as a chip in its header, and the panel to switch it.
// Flow: chip ─► panel (the names the agent's capabilities offer, claude's opus / sonnet / haiku, or a
// typed name)
// ─session:set-model─► hub ─► runner, which runs claude's `/model` when idle (Codex: its next turn); the chip shows the new model once the runner reports it
// (session:updated) and a spinner until the runner says the command finished
// (session:command-finished): claude may keep the old model ("Switch model?" → No), and then no
// session:updated would ever end the wait. Escape or a tap outside closes the panel.
import { lazy, Suspense, useEffect, useState } from 'react';
import { getSocket } from '../../lib/socket.ts';
import { usePopover } from '../../lib/ui/use-popover.ts';
import type { Session } from '@tether/shared';
import { describeModel, effortLevelsFor } from '../../lib/format.ts';
import { agentDisplayName, canSwitch } from '@tether/shared/wire';
import { Spinner } from '../../lib/ui/badge.tsx';
import './model-picker.css';

const ModelPanel = lazy(() => import('./model-panel.tsx').then((m) => ({ default: m.ModelPanel })));

export function ModelPicker({ session }: { session: Session }) {
  const { open, setOpen, panelId, rootRef, buttonRef, triggerProps } = usePopover();
  const [requested, setRequested] = useState<string | null>(null);
  const [requestedEffort, setRequestedEffort] = useState<string | null>(null);
  const live = session.status !== 'ended' && session.status !== 'failed';

  // The runner reported a model (or effort): the request is done (whatever it became).
  useEffect(() => setRequested(null), [session.model]);
  useEffect(() => setRequestedEffort(null), [session.effort]);
  // A /model finished either way (set, or kept): the chip shows the session's model again. Any
  // /model of this session counts: its model is whatever the record says once one has run.
  useEffect(() => {
    const socket = getSocket();
    if (!socket) return;
    const onFinished = (finished: { sessionId: string; command: string }) => {
      if (finished.sessionId === session.id && finished.command === '/model') setRequested(null);
    };
    socket.on('session:command-finished', onFinished);
    return () => {
      socket.off('session:command-finished', onFinished);
    };
  }, [session.id]);
  // An ended session types nothing more: nothing is pending.
  useEffect(() => {
    if (!live) {
      setRequested(null);
      setRequestedEffort(null);
    }
  }, [live]);

  const efforts = effortLevelsFor(session);
  const effort = requestedEffort ?? session.effort ?? null;
  const label = `${describeModel(session.model)}${effort ? ` · ${effort}` : ''}`;
  return (
    <div className="model-picker" ref={rootRef}>
      <button
        {...triggerProps('dialog')}
        className="model-chip"
        aria-label={`Model: ${label}. Change model${efforts ? ' or effort' : ''}`}
        title={session.model ?? `${agentDisplayName(session.agent, session.capabilities)}'s default model`}
        disabled={!live}
      >
        {requested || requestedEffort ? <Spinner size={11} /> : null}
        <span className="model-chip-text">{requested ? `${describeModel(requested)}${effort ? ` · ${effort}` : ''}` : label}</span>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <ModelPanel
            id={panelId}
            agentName={agentDisplayName(session.agent, session.capabilities)}
            models={session.capabilities && canSwitch(session.capabilities, 'models', session.launchKind) ? session.capabilities.models : null}
            sessionId={session.id}
            model={session.model}
            {...(efforts ? { efforts, effort: session.effort ?? null } : {})}
            onRequested={(model) => {
              setRequested(model);
              setOpen(false);
              buttonRef.current?.focus();
            }}
            onEffortRequested={(level) => {
              setRequestedEffort(level);
              setOpen(false);
              buttonRef.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
