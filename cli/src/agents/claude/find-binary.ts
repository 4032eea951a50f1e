// find-binary.ts: which `claude` executable a session runs (agents/find-binary.ts): TETHER_CLAUDE_BIN,
// else `claude` on PATH.
import { findAgentBinary } from '../find-binary.ts';

export function findClaudeBinary(options: { env?: NodeJS.ProcessEnv } = {}): string {
  return findAgentBinary({ env: options.env ?? process.env, command: 'claude', pinVariable: 'TETHER_CLAUDE_BIN', install: 'npm install -g @anthropic-ai/claude-code' });
}
