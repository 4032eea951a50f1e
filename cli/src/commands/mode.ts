// mode.ts: `tether mode <session> [mode]`: read a session's permission mode, or switch it as the phone
// does (claude's Shift+Tab cycle at the desk, Codex's and Gemini's own ways: the runner's agent room
// knows how). A mode the session was not started allowing is refused by the runner, not here.
import { PermissionModeSchema, type PermissionMode } from '@tether/shared';
import { settingCommand } from './setting.ts';

export default settingCommand<PermissionMode>({
  name: 'mode',
  summary: "show or change a session's permission mode (as the desk's Shift+Tab does)",
  values: PermissionModeSchema.options.join('|'),
  read: (session) => session.permissionMode,
  parse: (wanted) => {
    const mode = PermissionModeSchema.safeParse(wanted);
    return mode.success ? { ok: true, value: mode.data } : { ok: false, error: `unknown permission mode "${wanted}": use one of ${PermissionModeSchema.options.join(', ')}` };
  },
  event: 'session:set-mode',
  payload: (sessionId, mode) => ({ sessionId, mode }),
  asked: (mode) => `asked for ${mode} mode: the agent switches at its next idle prompt`,
});
