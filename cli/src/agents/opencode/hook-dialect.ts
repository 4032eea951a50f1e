// hook-dialect.ts: the bridge (bridge.ts) speaks to the runner's hook endpoint in claude's words, and
// reads a permission's verdict back in opencode's: its server's reply (`once`, or `reject` with the
// person's reason as the message its model reads). No verdict: no reply, its own dialog decides.
import type { HookDialect } from '../agent.ts';

export const opencodeHookDialect = {
  payload: (_event, payload) => payload,
  permission(verdict) {
    if (!verdict) return {};
    if (verdict.behavior === 'deny') return { reply: 'reject', ...(verdict.message ? { message: verdict.message } : {}) };
    // An edited input cannot be given to its server's reply: refused rather than run unedited.
    if (verdict.updatedInput) return { reply: 'reject', message: 'The person edited this call before allowing it, and tether cannot run an edited call here: ask again with the call as they want it.' };
    return { reply: 'once' };
  },
} satisfies HookDialect;
