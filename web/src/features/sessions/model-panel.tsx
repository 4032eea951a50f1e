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

/** What a typed model name is sent under (an option's key is its own name or `effort:<level>`). */
const CUSTOM_KEY = 'custom:';

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
  /** The hub forwarded the request: close, and show it as pending until the runner reports. */
  onRequested: (model: string) => void;
  onEffortRequested?: (level: EffortLevel) => void;
};

export function ModelPanel({ id, agentName, models, sessionId, model, efforts, effort, onRequested, onEffortRequested }: ModelPanelProps) {
  const aliases: readonly string[] = models?.offered ?? [];
  const [custom, setCustom] = useState('');
  const [sending, setSending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = modelAliasOf(model, aliases);

  /** One request at a time: `key` marks what is being sent (a spinner on it, every option disabled). */
  const send = async (key: string, request: () => Promise<unknown>, done: () => void) => {
    setSending(key);
    setError(null);
    try {
      await request();
      done();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setSending(null);
    }
  };
  const choose = (next: string, key = next) => send(key, () => requestHub('session:set-model', { sessionId, model: next }), () => onRequested(next));
  const chooseEffort = (level: EffortLevel) =>
    send(`effort:${level}`, () => requestHub('session:set-effort', { sessionId, level }), () => onEffortRequested?.(level));

  const onCustom = (event: FormEvent) => {
    event.preventDefault();
    const next = custom.trim();
    if (next) void choose(next, CUSTOM_KEY);
  };

  const sendingCustom = sending === CUSTOM_KEY;
  return (
    <div className="model-panel" id={id} role="dialog" aria-label="Switch model">
      {models ? <div className="model-panel-title">Model for this session</div> : null}
      {aliases.length > 0 ? (
        <OptionRow label="Models" options={aliases} current={current} sending={sending} sendingKey={(alias) => alias} onChoose={(alias) => void choose(alias)} />
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
          <OptionRow label="Effort" options={efforts} current={effort ?? null} sending={sending} sendingKey={(level) => `effort:${level}`} onChoose={(level) => void chooseEffort(level)} />
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

/** A row of pressable options, the current one pressed; all disabled while anything is being sent. */
function OptionRow<T extends string>(props: {
  label: string;
  options: readonly T[];
  current: T | null;
  sending: string | null;
  sendingKey: (option: T) => string;
  onChoose: (option: T) => void;
}) {
  return (
    <div className="model-options" role="group" aria-label={props.label}>
      {props.options.map((option) => (
        <button
          key={option}
          type="button"
          className="model-option"
          aria-pressed={props.current === option}
          disabled={props.sending !== null}
          onClick={() => props.onChoose(option)}
        >
          {props.sending === props.sendingKey(option) ? <Spinner size={14} /> : null}
          {option}
        </button>
      ))}
    </div>
  );
}
