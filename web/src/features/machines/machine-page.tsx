// machine-page.tsx: one machine (`/machines/:id`): its name, whether its `tether daemon` is online
// (and what to start where when not), its shell, and "Found on this machine": the switch that has
// its daemon look for conversations tether did not run (`machine:outside`), and what it found.
//
//   switch ─machine:outside─► hub (kept; told to the daemon) ─machine:updated─► this page
//   list   ─GET /api/machines/:id/outside─► found-list.tsx ─Adopt/Fork─► the new session
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import type { Machine } from '@tether/shared';
import { agentDisplayName } from '@tether/shared/wire';
import { useHubFeatures } from '../../lib/queries.ts';
import { requestHub } from '../../lib/socket.ts';
import { IconShell } from '../../lib/ui/icons.tsx';
import { BackHeader } from '../../lib/ui/back-header.tsx';
import { FoundList } from './found-list.tsx';
import { offlineNote } from './found-actions.ts';
import './machines.css';

/** "Claude, Codex and Gemini": the agents its daemon found installed. */
function agentsOf(machine: Machine): string {
  const names = machine.agents.map((agent) => agentDisplayName(agent, machine.capabilities[agent]));
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'agent');
}

function OutsideSwitch({ machine }: { machine: Machine }) {
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const flip = async () => {
    setSaving(true);
    setFailure(null);
    try {
      // The hub's machine:updated fact brings the new state into the machines list.
      await requestHub('machine:outside', { machineId: machine.id, enabled: !machine.outside });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="outside-switch-row">
      <button
        type="button"
        role="switch"
        aria-checked={machine.outside}
        aria-describedby="outside-switch-note"
        className="outside-switch"
        disabled={saving}
        onClick={() => void flip()}
      >
        <span className="outside-switch-text">Find conversations here</span>
        <span className="outside-switch-track" aria-hidden="true">
          <span className="outside-switch-thumb" />
        </span>
      </button>
      <p className="machine-hint" id="outside-switch-note">
        {machine.outside
          ? `On: the daemon on ${machine.name} lists the ${agentsOf(machine)} conversations it finds that tether did not run. The hub keeps titles and folders only, never their content.`
          : `Off: nothing on ${machine.name} is looked at. On lists conversations started outside tether, so you can continue them here (tether daemon --outside turns it on too).`}
      </p>
      {failure ? (
        <p className="approval-error" role="alert">
          Couldn't switch it: {failure}
        </p>
      ) : null}
    </div>
  );
}

function DaemonState({ machine }: { machine: Machine }) {
  return (
    <p className={`banner machine-state${machine.online ? ' is-online' : ''}`}>
      <span className={`machine-dot${machine.online ? ' is-online' : ''}`} aria-hidden="true" />
      {machine.online ? 'Daemon online' : offlineNote(machine.name)}
    </p>
  );
}

export function MachinePage({ machine }: { machine: Machine }) {
  const shells = useHubFeatures()?.shell === true;
  return (
    <div className="session-screen machine-screen">
      <BackHeader title={machine.name} below={<p className="session-header-subtitle">{`${machine.user}@${machine.name} · ${machine.os}`}</p>}>
        {shells && machine.shell && machine.online ? (
          <Link to="/machines/$machineId/shell" params={{ machineId: machine.id }} className="icon-button" aria-label={`Shell on ${machine.name}`} title={`Shell on ${machine.name}`}>
            <IconShell size={21} />
          </Link>
        ) : null}
      </BackHeader>
      <div className="machine-body">
        <DaemonState machine={machine} />
        <section className="found-section" aria-labelledby="found-title">
          <h2 className="found-section-title" id="found-title">
            Found on this machine
          </h2>
          <OutsideSwitch machine={machine} />
          {machine.outside ? <FoundList machine={machine} /> : null}
        </section>
      </div>
    </div>
  );
}

/** The page for an id the hub does not list (another namespace's machine answers the same). */
export function NoSuchMachine() {
  return (
    <div className="detail-placeholder">
      <p className="detail-placeholder-title">No such machine</p>
      <p>This machine is not registered with the hub. Run tether daemon on it to add it.</p>
      <Link to="/" className="button">
        Back to sessions
      </Link>
    </div>
  );
}
