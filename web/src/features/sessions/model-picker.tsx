// model-picker.tsx: the session's model as a chip in its header, and the panel to switch it.
// Flow: chip ─► panel (the names the agent's capabilities offer, claude's opus / sonnet / haiku, or a
// typed name)
// ─session:set-model─► hub ─► runner, which runs claude's `/model` when idle (Codex: its next turn); the chip shows the new model once the runner reports it
// (session:updated) and a spinner until the runner says the command finished
// (session:command-finished): claude may keep the old model ("Switch model?" → No), and then no
// session:updated would ever end the wait. Escape or a tap outside closes the panel.
import { useEffect, useState } from 'react';
import { lazyPart } from '../../lib/ui/lazy-part.tsx';
import { getSocket } from '../../lib/socket.ts';
import type { Session } from '@tether/shared';
import { describeModel, effortLevelsFor } from '../../lib/format.ts';
import { agentDisplayName, canSwitch, isFinalStatus } from '@tether/shared/wire';
import { SettingChip } from './setting-chip.tsx';
import './model-picker.css';

const ModelPanel = lazyPart(() => import('./model-panel.tsx').then((m) => m.ModelPanel));

export function ModelPicker({ session }: { session: Session }) {
  const [requested, setRequested] = useState<string | null>(null);
  const [requestedEffort, setRequestedEffort] = useState<string | null>(null);
  const live = !isFinalStatus(session.status);

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
    <SettingChip
      session={session}
      text={requested ? `${describeModel(requested)}${effort ? ` · ${effort}` : ''}` : label}
      label={`Model: ${label}. Change model${efforts ? ' or effort' : ''}`}
      title={session.model ?? `${agentDisplayName(session.agent, session.capabilities)}'s default model`}
      pending={Boolean(requested || requestedEffort)}
      panel={({ id, done }) => (
        <ModelPanel
          id={id}
          agentName={agentDisplayName(session.agent, session.capabilities)}
          models={session.capabilities && canSwitch(session.capabilities, 'models', session.launchKind) ? session.capabilities.models : null}
          sessionId={session.id}
          model={session.model}
          {...(efforts ? { efforts, effort: session.effort ?? null } : {})}
          onRequested={(model) => {
            setRequested(model);
            done();
          }}
          onEffortRequested={(level) => {
            setRequestedEffort(level);
            done();
          }}
        />
      )}
    />
  );
}
