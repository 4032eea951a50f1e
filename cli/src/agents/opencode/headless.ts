// headless.ts: opencode's headless transport: `opencode acp` (Agent Client Protocol on its stdio),
// spoken by the agent-neutral ACP transport (agents/acp/). opencode keeps its conversation in SQLite
// (`~/.local/share/opencode/opencode.db`), which tether does not read: the chat is what it says over
// ACP, kept in tether's chat log (acp/chat-log.ts). Its model and mode are set over ACP (launch.ts).
import type { HeadlessContext, HeadlessTransport } from '../headless-transport.ts';
import { createAcpTransport } from '../acp/transport.ts';
import { opencodeEditQuestion } from './edit-request.ts';
import { OPENCODE_MODES } from './launch.ts';

export function createOpencodeHeadless(context: HeadlessContext): HeadlessTransport {
  return createAcpTransport(context, {
    name: 'opencode',
    args: () => ['acp'],
    chat: 'log',
    modes: OPENCODE_MODES,
    // Its edit's raw input is its permission's metadata: the file and a unified diff (1.17.0 sends no
    // ACP diff content at all; 1.18.33's is the whole file before and after).
    question: (call) => (call.kind === 'edit' ? opencodeEditQuestion(call.rawInput) : null),
  });
}
