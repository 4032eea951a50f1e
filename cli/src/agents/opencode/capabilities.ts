// capabilities.ts: what the phone may do with an opencode session (shared agent-capabilities.ts), sent
// with its registration and advertised by the daemon. The hub and the web decide from this record.
// opencode runs headless (`opencode acp`) and its TUI in a PTY heard through an opencode server (its
// own from 1.18.33; at 1.17.0 one tether starts, attached to: docs/decisions/agents.md): its model and
// mode are switched headless only (its TUI's picker
// is not driven yet), its permission requests reach the phone in both.
import type { AgentCapabilities } from '@tether/shared';

export const opencodeCapabilities: AgentCapabilities = {
  displayName: 'opencode',
  description: 'sst · the opencode CLI',
  // ACP's session/set_model takes `provider/model`, any its providers list (its own picker reads the
  // same list: typed, as the list is the user's configuration).
  models: { offered: [], typed: true, example: 'anthropic/claude-sonnet-4-5', switchableIn: ['headless'] },
  // It has no effort setting over ACP.
  effort: { levels: [], maps: {}, switchableIn: [] },
  // Its two primary agents are ACP session modes: build (default) and plan (no edit tools).
  modes: { values: ['default', 'plan'], switchableIn: ['headless'] },
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
