// found-row.tsx: one conversation found on a machine: its agent, title, folder, last activity, size,
// live or past, and what can be done with it (found-actions.ts). Adopt and Fork ask the hub
// (`outside:adopt`), which answers once the new session is ready; the row then opens it. A refusal
// stays on the row, in words (the daemon to start, someone else adopted it, still being written).
import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { SPAWN_ACK_TIMEOUT_MS, type Machine, type OutsideSession } from '@tether/shared';
import { agentDisplayName } from '@tether/shared/wire';
import { formatBytes, formatDirectory, formatRelativeTime } from '../../lib/format.ts';
import { queryKeys, upsertSession } from '../../lib/queries.ts';
import { requestHub, SocketRequestError } from '../../lib/socket.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { adoptedTarget, adoptFailure, foundOffer, type FoundAction } from './found-actions.ts';

export function FoundRow({ entry, machine, now }: { entry: OutsideSession; machine: Machine; now: number }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [busy, setBusy] = useState<FoundAction | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const offer = foundOffer(entry, machine);
  const name = agentDisplayName(entry.agent, machine.capabilities[entry.agent]);
  const title = entry.title.trim() || 'Untitled conversation';
  const titleId = `found-${entry.agentSessionId}`;

  const run = async (action: FoundAction) => {
    setBusy(action);
    setFailure(null);
    try {
      const { session } = await requestHub(
        'outside:adopt',
        { machineId: machine.id, agentSessionId: entry.agentSessionId, launchKind: action.launchKind, fork: action.kind === 'fork' },
        { timeoutMs: SPAWN_ACK_TIMEOUT_MS },
      );
      upsertSession(client, session);
      // An adopted conversation leaves the list (a fork's stays): the next read says so.
      void client.invalidateQueries({ queryKey: queryKeys.outsideAll(machine.id) });
      void navigate(adoptedTarget(session));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      setFailure(adoptFailure({ reason: error instanceof SocketRequestError ? error.reason : undefined, message, machineName: machine.name }));
      setBusy(null);
    }
  };

  return (
    <li className={`found-row${offer.live ? ' is-live' : ''}`} aria-labelledby={titleId} aria-busy={busy !== null}>
      <div className="found-row-head">
        <span className="found-agent">{name}</span>
        <span className={`found-state${offer.live ? ' is-live' : ''}`}>{offer.state}</span>
      </div>
      <p className="found-title" id={titleId}>
        {title}
      </p>
      <p className="found-facts">
        <span className="found-folder" title={entry.folder}>
          {formatDirectory(entry.folder, { home: machine.home, max: 48 })}
        </span>
        <span>
          <span className="sr-only">Last active </span>
          {formatRelativeTime(entry.lastActivity, now)}
        </span>
        <span>{formatBytes(entry.sizeBytes)}</span>
      </p>
      {offer.notes.map((note) => (
        <p key={note} className="found-note">
          {note}
        </p>
      ))}
      {offer.actions.length > 0 ? (
        <div className="found-actions">
          {offer.actions.map((action, index) => (
            <button
              key={`${action.kind}-${action.launchKind}`}
              type="button"
              className={`button${index === 0 && action.kind === 'adopt' ? ' button-primary' : ''}`}
              title={action.hint}
              aria-describedby={titleId}
              disabled={busy !== null || !machine.online}
              onClick={() => void run(action)}
            >
              {busy === action ? <Spinner size={14} /> : null}
              {busy === action ? (action.kind === 'fork' ? 'Forking…' : 'Adopting…') : action.label}
            </button>
          ))}
        </div>
      ) : null}
      {failure ? (
        <p className="approval-error" role="alert">
          {failure}
        </p>
      ) : null}
    </li>
  );
}
