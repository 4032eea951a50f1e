// capabilities.ts: what the phone may do with an opencode session (shared agent-capabilities.ts), sent
// with its registration and advertised by the daemon. The hub and the web decide from this record.
// opencode runs headless (`opencode acp`) and its TUI in a PTY heard through an opencode server (its
// own from 1.18.33; at 1.17.0 one tether starts, attached to: docs/decisions/agents.md): its model and
// mode are switched in both (a PTY: its own /models picker and Tab, model-picker.ts and modes.ts), its
// permission requests reach the phone in both.
import type { AgentCapabilities } from '@tether/shared';

export const opencodeCapabilities: AgentCapabilities = {
  displayName: 'opencode',
  description: 'sst · the opencode CLI',
  // ACP's session/set_model and its TUI's picker take `provider/model`, any its providers list
  // (typed, as the list is the user's configuration).
  models: { offered: [], typed: true, example: 'anthropic/claude-sonnet-4-5', switchableIn: ['headless', 'pty'] },
  // It has no effort setting over ACP.
  effort: { levels: [], maps: {}, switchableIn: [] },
  // Its two primary agents are ACP session modes: build (default) and plan (no edit tools); its TUI
  // cycles them with Tab.
  modes: { values: ['default', 'plan'], switchableIn: ['headless', 'pty'] },
  // Its own TUI continues a session at the desk.
  resumeCommand: 'opencode --session {id}',
  fork: { supported: false, reason: 'tether does not fork an opencode session yet (ACP has session/fork; not wired)' },
  // Its plan mode refuses edit tools but still asks for shell commands, which a reviewer must never
  // be let run: no reviewer until a gate of tether's refuses them (docs/decisions/agents.md).
  readOnly: false,
  // ACP's session/request_permission (headless) or its server's permission.asked (PTY), where
  // opencode's own rules say `ask`. An allow cannot carry an edited input, and tether keeps no rules.
  relays: { requests: ['permission'], editedInput: false, sessionRules: false },
};
