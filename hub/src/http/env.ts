// env.ts: what every route of the Hono app sees: the client's address (bindings) and, behind the
// bearer middleware, the authenticated caller.
import type { Caller } from '../auth/namespace.ts';

export type HubHttpEnv = {
  /** Passed by main.ts from Bun's `server.requestIP`; tests pass it to `app.request(…, env)`. */
  Bindings: { ip?: string };
  Variables: { caller: Caller };
};
