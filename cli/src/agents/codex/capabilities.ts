// capabilities.ts: what the phone may do with a Codex session (shared agent-capabilities.ts), sent
// with its registration and advertised by the daemon. The hub and the web decide from this record.
import type { AgentCapabilities } from '@tether/shared';

export const codexCapabilities: AgentCapabilities = {
  displayName: 'Codex',
  description: 'OpenAI · the codex CLI',
  // app-server's turn/start takes a model and an effort for the next turn (headless); a PTY Codex
  // switches through its `/model` picker, which lists the models it offers by display name (only
  // those can be chosen there: model-picker.ts). No aliases: a typed name.
  models: { offered: [], typed: true, example: 'gpt-5.5', switchableIn: ['headless', 'pty'] },
  // Its highest is xhigh: a request for max asks for that.
  effort: { levels: ['low', 'medium', 'high', 'xhigh'], maps: { max: 'xhigh' }, switchableIn: ['headless', 'pty'] },
  // Its collaboration modes, default and plan, in headless sessions (the next turn/start carries
  // them). A PTY Codex switches them with Shift+Tab at its own prompt, not driven from the phone yet.
  modes: { values: ['default', 'plan'], switchableIn: ['headless'] },
  resumeCommand: 'tether codex resume {id}',
  // Its permission hook (PTY) and app-server approvals (headless); its own dialogs on screen (PTY).
  // Edited input and rules are reserved in its hook schema and fail closed (Agent.plainVerdicts).
  // spawnArgs({ readOnly }) starts it as a reviewer (reviews.ts).
  readOnly: true,
  fork: { supported: false, reason: 'Codex has no fork on its command line: codex resume continues the same thread' },
  // Questions: request_user_input in plan mode (headless); MCP forms: its app server's
  // mcpServer/elicitation/request (headless, 0.160.0 and 0.171.0).
  relays: { requests: ['permission', 'question', 'dialog', 'elicitation'], editedInput: false, sessionRules: false },
};
