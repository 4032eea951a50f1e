// capabilities.ts: what the phone may do with a claude session (shared agent-capabilities.ts), sent
// with its registration and advertised by the daemon. The hub and the web decide from this record.
import type { AgentCapabilities } from '@tether/shared';

export const claudeCapabilities: AgentCapabilities = {
  displayName: 'Claude',
  description: 'Anthropic · the claude CLI',
  // Its own aliases: always the latest of each family. `/model` in a PTY, `--model` headless.
  models: { offered: ['opus', 'sonnet', 'haiku'], typed: true, example: 'claude-sonnet-4-5', switchableIn: ['pty', 'headless'] },
  // `/effort` is typed at its PTY prompt; `claude -p` has no such command.
  effort: { levels: ['low', 'medium', 'high', 'xhigh', 'max'], maps: {}, switchableIn: ['pty'] },
  // Shift+Tab in a PTY, the permission mode of the next `claude -p` turn headless.
  modes: { values: ['default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions'], switchableIn: ['pty', 'headless'] },
  resumeCommand: 'tether claude --resume {id}',
  // spawnArgs({ readOnly }) starts it as a reviewer (reviews.ts).
  readOnly: true,
  // spawnArgs({ fork }): --resume=<id> --fork-session, a new session with the history.
  fork: { supported: true, reason: null },
  // In its terminal it waits at a usage limit and goes on at the reset by itself (2.1.332: "Usage
  // limit reset · Continuing automatically"); `claude -p` ends the turn (docs/decisions/usage-limits.md).
  waitsOutLimitIn: ['pty'],
  relays: { requests: ['permission', 'question', 'plan', 'dialog', 'elicitation'], editedInput: true, sessionRules: true, projectRules: true },
};
