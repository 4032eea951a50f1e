// server.ts: the runner's loopback hook server. claude POSTs its hook JSON here (HTTP hooks), and
// `tether hook session-start` (the one command hook) does the same; the JSON answered is the hook's
// output.
//
//   claude ──POST /hook/permission-request (secret header)──► server ──► onHook
//          ◄── decision JSON (held open until a person decides, or `{}`) ──┘
//
// Binds 127.0.0.1 on a random port; a request without the per-session secret gets 403 and never
// reaches the handler. A request whose connection drops (claude exited) aborts its signal, so a
// waiting approval is withdrawn.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { recordHookTiming, wallNow } from './bench-timings.ts';
import { HOOK_SECRET_HEADER, isHookEventArg, type HookEndpoint, type HookEventArg } from './events.ts';

/** Largest hook payload accepted: tool inputs (a Write of a big file) can be large, but bounded. */
const MAX_HOOK_BODY_BYTES = 8 * 1024 * 1024;

export type HookRequest = {
  event: HookEventArg;
  /** claude's hook JSON (session_id, transcript_path, tool_name, …). */
  payload: Record<string, unknown>;
  /** Aborted when the caller goes away. */
  signal: AbortSignal;
};

export type HookServer = {
  endpoint: HookEndpoint;
  stop(): void;
};

function secretMatches(given: string | null, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function startHookServer(options: {
  /** Returns the JSON the hook prints (`{}` for "no opinion"). */
  onHook: (request: HookRequest) => Promise<Record<string, unknown>>;
  secret?: string;
}): HookServer {
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const inFlight = new Set<AbortController>();

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    // A PermissionRequest stays open while a person decides: never time it out here.
    idleTimeout: 0,
    maxRequestBodySize: MAX_HOOK_BODY_BYTES,
    fetch: async (req) => {
      const arrived = wallNow();
      if (!secretMatches(req.headers.get(HOOK_SECRET_HEADER), secret)) {
        return Response.json({ error: 'forbidden' }, { status: 403 });
      }
      const url = new URL(req.url);
      const [, kind, name] = url.pathname.split('/');
      if (req.method !== 'POST') return Response.json({ error: 'method not allowed' }, { status: 405 });
      if (kind === 'ping') return Response.json({ ok: true });
      if (kind !== 'hook' || !name || !isHookEventArg(name)) return Response.json({ error: 'not found' }, { status: 404 });
      let payload: unknown;
      try {
        payload = await req.json();
      } catch {
        return Response.json({ error: 'body is not JSON' }, { status: 400 });
      }
      if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
        return Response.json({ error: 'body must be a JSON object' }, { status: 400 });
      }
      const controller = new AbortController();
      inFlight.add(controller);
      const onDrop = () => controller.abort();
      req.signal.addEventListener('abort', onDrop);
      try {
        const result = await options.onHook({ event: name, payload: payload as Record<string, unknown>, signal: controller.signal });
        const response = Response.json(result);
        recordHookTiming({ role: 'server', event: name, in: arrived, out: wallNow() });
        return response;
      } catch (error) {
        return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status: 500 });
      } finally {
        req.signal.removeEventListener('abort', onDrop);
        inFlight.delete(controller);
      }
    },
  });

  return {
    endpoint: { port: server.port as number, secret },
    stop: () => {
      for (const controller of inFlight) controller.abort();
      inFlight.clear();
      server.stop(true);
    },
  };
}
