// capabilities.ts: what the phone may do with an opencode session (shared agent-capabilities.ts), sent
// with its registration and advertised by the daemon. The hub and the web decide from this record.
// opencode runs headless only under tether (`opencode acp`, docs/decisions/agents.md): what its TUI
// would need (a screen reader, a hook gate) is not built, so nothing here is switched in a PTY.
import type { AgentCapabilities } from '@tether/shared';

export const opencodeCapabilities: AgentCapabilities = {
  displayName: 'opencode',
  description: 'sst · the opencode CLI (headless)',
  // ACP's session/set_model takes `provider/model`, any its providers list (its own picker reads the
  // same list: typed, as the list is the user's configuration).
  models: { offered: [], typed: true, example: 'anthropic/claude-sonnet-4-5', switchableIn: ['headless'] },
  // It has no effort setting over ACP.
  effort: { levels: [], maps: {}, switchableIn: [] },
  // Its two primary agents are ACP session modes: build (default) and plan (no edit tools).
  modes: { values: ['default', 'plan'], switchableIn: ['headless'] },
  // Its own TUI continues a session at the desk (not mirrored: no `tether opencode` yet).
  resumeCommand: 'opencode --session {id}',
  fork: { supported: false, reason: 'tether does not fork an opencode session yet (ACP has session/fork; not wired)' },
  // Its plan mode refuses edit tools but still asks for shell commands, which a reviewer must never
  // be let run: no reviewer until a gate of tether's refuses them (docs/decisions/agents.md).
  readOnly: false,
  // ACP's session/request_permission, where opencode's own permission rules say `ask`. An allow
  // cannot carry an edited input over ACP, and tether keeps no rules for it.
  relays: { requests: ['permission'], editedInput: false, sessionRules: false },
};
