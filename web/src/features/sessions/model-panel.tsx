// model-panel.tsx: the open half of the model picker, loaded on first open (the header that shows
// the chip is in the first-load bundle; this panel is not). Picks an offered model (claude's aliases)
// or a typed name and sends session:set-model, or an effort level and sends session:set-effort; what
// is offered is the session's agent capabilities (the runner then types claude's `/model` or
// `/effort` when it is idle, or a headless Codex takes both with its next turn).
import { useState, type FormEvent } from 'react';
import { requestHub } from '../../lib/socket.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { modelAliasOf } from '../../lib/format.ts';
import type { AgentCapabilities } from '@tether/shared';
import type { EffortLevel } from '@tether/shared/wire';

export type ModelPanelProps = {
  id: string;
  /** The agent's name in sentences. */
  agentName: string;
  /** What it takes for a model here (its capabilities); null: the model is not switched from here. */
  models: AgentCapabilities['models'] | null;
  sessionId: string;
  model: string | null;
  /** The levels the agent takes here (effortLevelsFor); none hides the effort row. */
  efforts?: readonly EffortLevel[];
  /** The session's effort level, null before the runner reported one. */
  effort?: EffortLevel | null;
  /** The hub relayed the request: close, and show it as pending until the runner reports. */
  onRequested: (model: string) => void;
  onEffortRequested?: (level: EffortLevel) => void;
};

export function ModelPanel({ id, agentName, models, sessionId, model, efforts, effort, onRequested, onEffortRequested }: ModelPanelProps) {
  const aliases: readonly string[] = models?.offered ?? [];
  const [custom, setCustom] = useState('');
  const [sending, setSending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = modelAliasOf(model, aliases);

  const choose = async (next: string) => {
    setSending(next);
    setError(null);
    try {
      await requestHub('session:set-model', { sessionId, model: next });
      onRequested(next);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSending(null);
    }
  };

  const chooseEffort = async (level: EffortLevel) => {
    setSending(`effort:${level}`);
    setError(null);
    try {
      await requestHub('session:set-effort', { sessionId, level });
      onEffortRequested?.(level);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSending(null);
    }
  };

  const onCustom = (event: FormEvent) => {
    event.preventDefault();
    const next = custom.trim();
    if (next) void choose(next);
  };

  const sendingCustom = sending !== null && !aliases.includes(sending);
  return (
    <div className="model-panel" id={id} role="dialog" aria-label="Switch model">
      {models ? <div className="model-panel-title">Model for this session</div> : null}
      {aliases.length > 0 ? (
        <div className="model-options" role="group" aria-label="Models">
          {aliases.map((alias) => (
            <button
              key={alias}
              type="button"
              className="model-option"
              aria-pressed={current === alias}
              disabled={sending !== null}
              onClick={() => void choose(alias)}
            >
              {sending === alias ? <Spinner size={14} /> : null}
              {alias}
            </button>
          ))}
        </div>
      ) : null}
      {models?.typed ? (
      <form className="model-custom" onSubmit={onCustom}>
        <input
          className="field-input field-mono model-custom-input"
          aria-label={aliases.length > 0 ? 'Other model name' : 'Model name'}
          placeholder={models.example ?? undefined}
          value={custom}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={200}
          onChange={(event) => setCustom(event.target.value)}
        />
        <button type="submit" className="button" disabled={sending !== null || custom.trim() === ''}>
          {sendingCustom ? <Spinner size={14} /> : null}
          Switch
        </button>
      </form>
      ) : null}
      {efforts ? (
        <>
          <div className="model-panel-title">Effort</div>
          <div className="model-options" role="group" aria-label="Effort">
            {efforts.map((level) => (
              <button
                key={level}
                type="button"
                className="model-option"
                aria-pressed={effort === level}
                disabled={sending !== null}
                onClick={() => void chooseEffort(level)}
              >
                {sending === `effort:${level}` ? <Spinner size={14} /> : null}
                {level}
              </button>
            ))}
          </div>
        </>
      ) : null}
      {error ? (
        <p className="model-error" role="alert">
          Couldn't switch: {error}
        </p>
      ) : (
        <p className="model-note">{agentName} switches when it is idle; a running turn keeps its model{efforts ? ' and effort' : ''}.</p>
      )}
    </div>
  );
}
