// capabilities.ts: what the phone may do with a Gemini CLI session (shared agent-capabilities.ts), sent
// with its registration and advertised by the daemon. The hub and the web decide from this record.
import type { AgentCapabilities } from '@tether/shared';

export const geminiCapabilities: AgentCapabilities = {
  displayName: 'Gemini',
  description: 'Google · the gemini CLI',
  // `/model` opens a picker in its TUI (not driven from the phone yet); a session starts with `-m`.
  // Headless, ACP's session/set_model switches it for what follows.
  models: { offered: [], typed: true, example: 'gemini-2.5-pro', switchableIn: ['headless'] },
  effort: { levels: [], maps: {}, switchableIn: [] },
  // Shift+Tab at its desk cycles its modes; tether gates approvals with its hook in yolo, so a mode
  // is chosen at launch (`--approval-mode`), not switched from the phone.
  modes: { values: [], switchableIn: [] },
  resumeCommand: 'tether gemini --resume {id}',
  fork: { supported: false, reason: 'Gemini CLI has no fork of a saved session: --resume continues the same one' },
  // Its BeforeTool hook (allow, deny with a reason, ask) and its own dialog on screen (PTY); ACP's
  // session/request_permission (headless). The hook could
  // rewrite a call's input, but an edit is refused for now (Agent.plainVerdicts), and it has no rules.
  relays: { requests: ['permission', 'dialog'], editedInput: false, sessionRules: false },
  // A reviewer runs headless in Gemini's own plan mode (`--approval-mode plan`: read-only, Gemini
  // refuses its write and shell tools itself). A PTY Gemini runs in yolo behind tether's hook, where
  // Gemini refuses plan mode, so it is no reviewer there yet.
  readOnly: true,
  readOnlyIn: ['headless'],
};
