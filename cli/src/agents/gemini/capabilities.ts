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
  // In a PTY its mode is tether's gate's policy (gate.ts: Gemini runs in yolo behind its BeforeTool
  // hook), switched from the phone, and the desk's Shift+Tab is read back from its mode row. Bypass
  // only for a session started in yolo (the runner refuses it otherwise). Headless: chosen at launch.
  modes: { values: ['default', 'acceptEdits', 'plan', 'bypassPermissions'], switchableIn: ['pty'] },
  resumeCommand: 'tether gemini --resume {id}',
  fork: { supported: false, reason: 'Gemini CLI has no fork of a saved session: --resume continues the same one' },
  // Its BeforeTool hook (allow, deny with a reason, ask) and its own dialog on screen (PTY); ACP's
  // session/request_permission (headless). The hook could
  // rewrite a call's input, but an edit is refused for now (Agent.plainVerdicts), and it has no rules.
  relays: { requests: ['permission', 'dialog'], editedInput: false, sessionRules: false },
  // A reviewer runs in plan mode (`--approval-mode plan`): headless, Gemini's own (it refuses its
  // write and shell tools itself); in a PTY, tether's gate refuses every tool but reading (gate.ts).
  readOnly: true,
};
