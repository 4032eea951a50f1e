// effort.ts: `tether effort <session> [level]`: read a session's effort level, or change it as the phone
// does, where its agent has one (its capabilities say which levels and launch kinds): claude's own
// `/effort <level>` typed at an idle prompt (PTY sessions), Codex's reasoning effort for its next turn.
import { EffortLevelSchema, type EffortLevel } from '@tether/shared';
import { settingCommand } from './setting.ts';

export default settingCommand<EffortLevel>({
  name: 'effort',
  summary: "show or change a session's effort level (claude's /effort, Codex's reasoning effort)",
  values: EffortLevelSchema.options.join('|'),
  read: (session) => session.effort,
  parse: (wanted) => {
    const level = EffortLevelSchema.safeParse(wanted);
    return level.success ? { ok: true, value: level.data } : { ok: false, error: `unknown effort level "${wanted}": use one of ${EffortLevelSchema.options.join(', ')}` };
  },
  event: 'session:set-effort',
  payload: (sessionId, level) => ({ sessionId, level }),
  asked: (level) => `asked for effort ${level}: the agent switches at its next idle prompt or turn`,
});
