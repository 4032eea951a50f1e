// new-session-fields.tsx: the fields of the new-session form (new-session-form.tsx owns the state,
// the spawn request and its progress): machine, directory, agent, permission mode, model. Each one
// shows only what the chosen machine and agent offer.
import { agentDisplayName } from '@tether/shared/wire';
import type { AgentKind, Machine, PermissionMode } from '@tether/shared';
import { formatDirectory } from '../../lib/format.ts';
import { VerbatimField } from '../../lib/ui/verbatim-field.tsx';
import { PERMISSION_MODES, type PermissionModeEntry } from './permission-modes.ts';

type Field<T> = { disabled: boolean; onChange: (value: T) => void };

export function MachineField({ machines, machineId, disabled, onChange }: Field<string> & { machines: readonly Machine[]; machineId: string | null }) {
  const online = machines.filter((m) => m.online);
  return (
    <fieldset className="form-group" disabled={disabled}>
      <legend className="field-label">Machine</legend>
      {machines.length === 0 ? (
        <p className="form-hint">No machine has registered yet. Run tether daemon on a computer to start sessions from here.</p>
      ) : (
        <div className="machine-options" role="radiogroup" aria-label="Machine">
          {machines.map((m) => (
            <label key={m.id} className={`machine-option ${m.online ? '' : 'is-offline'}`}>
              <input type="radio" name="machine" value={m.id} checked={machineId === m.id} disabled={!m.online} onChange={() => onChange(m.id)} />
              <span className={`machine-dot ${m.online ? 'is-online' : ''}`} aria-hidden="true" />
              <span className="machine-option-name">{m.name}</span>
              <span className="machine-option-meta">{m.online ? m.os : 'offline'}</span>
            </label>
          ))}
        </div>
      )}
      {machines.length > 0 && online.length === 0 ? <p className="form-hint">Every machine is offline. Start tether daemon on one of them.</p> : null}
    </fieldset>
  );
}

export function DirectoryField({ cwd, home, recent, disabled, onChange }: Field<string> & { cwd: string; home: string | undefined; recent: readonly string[] }) {
  return (
    <div className="form-group">
      <VerbatimField
        id="new-session-dir"
        label="Directory"
        value={cwd}
        onChange={(event) => onChange(event.target.value)}
        placeholder={home ? `${home}/src/project` : '~/src/project'}
        disabled={disabled}
        required
      />
      {recent.length > 0 ? (
        <div className="recent-dirs" role="group" aria-label="Recent directories">
          {recent.map((dir) => (
            <button
              key={dir}
              type="button"
              className={`recent-dir ${dir === cwd ? 'is-chosen' : ''}`}
              aria-label={`Use ${dir}`}
              aria-pressed={dir === cwd}
              title={dir}
              disabled={disabled}
              onClick={() => onChange(dir)}
            >
              {formatDirectory(dir, { home, max: 34 })}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}

export function AgentField({ agents, chosen, machine, disabled, onChange }: Field<AgentKind> & { agents: readonly AgentKind[]; chosen: AgentKind; machine: Machine | null }) {
  return (
    <fieldset className="form-group" disabled={disabled}>
      <legend className="field-label">Agent</legend>
      <div className="machine-options" role="radiogroup" aria-label="Agent">
        {agents.map((kind) => (
          <label key={kind} className="machine-option">
            <input type="radio" name="agent" value={kind} checked={chosen === kind} onChange={() => onChange(kind)} />
            <span className="machine-option-name">{agentDisplayName(kind, machine?.capabilities[kind])}</span>
            <span className="machine-option-meta">{machine?.capabilities[kind]?.description ?? `the ${kind} CLI`}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function ModeField({ modes, value, disabled, onChange }: Field<PermissionMode> & { modes: readonly PermissionModeEntry[]; value: PermissionMode }) {
  return (
    <div className="form-group">
      <label className="field-label" htmlFor="new-session-mode">
        Permissions
      </label>
      <select id="new-session-mode" className="field-input field-select" value={value} disabled={disabled} onChange={(event) => onChange(event.target.value as PermissionMode)}>
        {modes.map((mode) => (
          <option key={mode.value} value={mode.value}>
            {mode.startLabel}
          </option>
        ))}
      </select>
      <p className="form-hint">{PERMISSION_MODES.find((m) => m.value === value)?.hint}</p>
    </div>
  );
}

export function ModelField({ model, shortcuts, disabled, onChange }: Field<string> & { model: string; shortcuts: readonly string[] }) {
  return (
    <div className="form-group">
      <VerbatimField id="new-session-model" label="Model" value={model} placeholder="default" maxLength={200} disabled={disabled} onChange={(event) => onChange(event.target.value)} />
      {shortcuts.length > 0 ? (
        <div className="model-quick" role="group" aria-label="Model shortcuts">
          {['', ...shortcuts].map((alias) => (
            <button key={alias || 'default'} type="button" className={`recent-dir ${model === alias ? 'is-chosen' : ''}`} aria-pressed={model === alias} disabled={disabled} onClick={() => onChange(alias)}>
              {alias || 'default'}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
