// model.ts: `tether model <session> [model]`: read the model a session's agent last used, or switch it
// as the phone does. The names are the agent's own (claude's aliases such as sonnet or opus, Codex's
// provider's list): the runner checks them against what the agent offers, so none is listed here.
import { settingCommand } from './setting.ts';

/** The hub's bound for a model name (session:set-model's schema). */
const MAX_MODEL_CHARS = 200;

export default settingCommand<string>({
  name: 'model',
  summary: "show or change a session's model (the agent's own names: claude's sonnet, opus, …)",
  values: 'MODEL',
  read: (session) => session.model,
  parse: (wanted) =>
    wanted.trim() === '' || wanted.length > MAX_MODEL_CHARS || /[\u0000-\u001f\u007f]/.test(wanted)
      ? { ok: false, error: `"${wanted.slice(0, 40)}" is not a model name` }
      : { ok: true, value: wanted },
  event: 'session:set-model',
  payload: (sessionId, model) => ({ sessionId, model }),
  asked: (model) => `asked for model ${model}: the agent switches at its next idle prompt or turn`,
});
