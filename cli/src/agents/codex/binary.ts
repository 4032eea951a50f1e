// binary.ts: where the codex binary is (the pin variable, else PATH), for the agent and its join check.
import { findAgentBinary } from '../find-binary.ts';

export function findCodexBinary(env: Record<string, string | undefined>): string {
  return findAgentBinary({ env, command: 'codex', pinVariable: 'TETHER_CODEX_BIN', install: 'npm install -g @openai/codex' });
}
