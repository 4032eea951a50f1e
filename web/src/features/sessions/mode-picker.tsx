// mode-picker.tsx: claude's permission mode as a chip in the session header, and a small panel to
// switch it the way the desk does (the runner presses Shift+Tab until claude's footer shows it).
// Flow: chip ─► panel ─session:set-mode─► hub ─► runner ─► claude; the chip follows session:updated.
// The modes offered are the agent's (its capabilities); bypass only to a session running in it
// (started that way); claude's cycle decides the rest.
import { agentDisplayName } from '@tether/shared/wire';
import { useEffect, useState } from 'react';
import type { PermissionMode, Session } from '@tether/shared';

import { requestHub } from '../../lib/socket.ts';
import { modeLabel, PERMISSION_MODES } from './permission-modes.ts';
import { SettingChip } from './setting-chip.tsx';

export function ModePicker({ session }: { session: Session }) {
  const [requested, setRequested] = useState<PermissionMode | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The runner reported a mode: the request is done (whatever it became).
  useEffect(() => setRequested(null), [session.permissionMode]);
  // The agent's own modes (its capabilities), bypass only when started in it.
  const modes = session.capabilities?.modes.values ?? [];
  const offered = PERMISSION_MODES.filter((m) => modes.includes(m.value) && (m.value !== 'bypassPermissions' || session.bypass));

  const choose = async (mode: PermissionMode, done: () => void) => {
    setError(null);
    try {
      await requestHub('session:set-mode', { sessionId: session.id, mode });
      if (mode !== session.permissionMode) setRequested(mode);
      done();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  };

  return (
    <SettingChip
      session={session}
      text={modeLabel(requested ?? session.permissionMode)}
      label={`Permission mode: ${modeLabel(session.permissionMode)}. Change mode`}
      pending={requested !== null}
      panel={({ id, done }) => (
        <div className="model-panel" id={id} role="dialog" aria-label="Switch permission mode">
          <div className="model-panel-title">Permission mode</div>
          <div className="mode-options" role="group" aria-label="Modes">
            {offered.map((mode) => (
              <button
                key={mode.value}
                type="button"
                className="model-option mode-option"
                aria-pressed={session.permissionMode === mode.value}
                onClick={() => void choose(mode.value, done)}
              >
                <span className="mode-option-label">{mode.label}</span>
                <span className="mode-option-hint">{mode.hint}</span>
              </button>
            ))}
          </div>
          {error ? (
            <p className="model-error" role="alert">
              Couldn't switch: {error}
            </p>
          ) : (
            <p className="model-note">{agentDisplayName(session.agent, session.capabilities)} switches the way it does at the desk.</p>
          )}
        </div>
      )}
    />
  );
}
