// app-server.ts: JSON-RPC 2.0 over `codex app-server`'s stdio, one JSON object per line (the
// "jsonrpc" member is left out both ways, as Codex does). tether is the client: it sends requests
// (initialize, thread/start, turn/start, turn/interrupt…) and notifications; Codex sends
// notifications (turn/started, turn/completed, item/*…) and requests of its own (approvals), which
// tether must answer with a result or an error.
//
// Invariant: a request whose answer never comes is settled when Codex exits (rejected), and a
// malformed line is logged and skipped, never thrown.
import { forEachLine } from '../lines.ts';

type Json = Record<string, unknown>;

export type AppServerRequest = { id: number | string; method: string; params: Json };

export class AppServerError extends Error {
  constructor(
    readonly method: string,
    readonly code: number | null,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

export type AppServer = ReturnType<typeof connectAppServer>;

export function connectAppServer(o: {
  stdin: { write(data: string): unknown; flush(): unknown; end(): unknown };
  stdout: ReadableStream<Uint8Array>;
  log: (line: string) => void;
  onNotification: (method: string, params: Json) => void;
  /** Codex asks; the answer is sent with respond() or fail() (its id). */
  onRequest: (request: AppServerRequest) => void;
}) {
  let nextId = 0;
  let closed = false;
  const pending = new Map<number, { method: string; resolve: (result: Json) => void; reject: (error: Error) => void }>();
  const write = (message: Json) => {
    if (closed) return;
    try {
      o.stdin.write(`${JSON.stringify(message)}\n`);
      const flushed = o.stdin.flush();
      if (flushed instanceof Promise) flushed.catch((error: unknown) => o.log(`codex stdin: ${String(error)}`));
    } catch (error) {
      o.log(`codex stdin: ${String(error)}`);
    }
  };
  const onLine = (line: string) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return o.log(`codex app-server: not JSON: ${line.slice(0, 120)}`);
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) return;
    const m = message as Json;
    const params = m.params && typeof m.params === 'object' && !Array.isArray(m.params) ? (m.params as Json) : {};
    if (typeof m.method === 'string' && (typeof m.id === 'number' || typeof m.id === 'string')) return o.onRequest({ id: m.id, method: m.method, params });
    if (typeof m.method === 'string') return o.onNotification(m.method, params);
    if (typeof m.id !== 'number') return;
    const waiting = pending.get(m.id);
    if (!waiting) return;
    pending.delete(m.id);
    const error = m.error && typeof m.error === 'object' ? (m.error as Json) : null;
    if (error) waiting.reject(new AppServerError(waiting.method, typeof error.code === 'number' ? error.code : null, typeof error.message === 'string' ? error.message : 'error'));
    else waiting.resolve(m.result && typeof m.result === 'object' ? (m.result as Json) : {});
  };
  const reading = forEachLine(o.stdout, onLine)
    .catch((error: unknown) => o.log(`codex stdout: ${String(error)}`))
    .finally(() => {
      closed = true;
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(new AppServerError(waiting.method, null, 'codex exited before answering'));
      }
    });
  return {
    request(method: string, params: Json): Promise<Json> {
      if (closed) return Promise.reject(new AppServerError(method, null, 'codex has exited'));
      const id = ++nextId;
      const answer = new Promise<Json>((resolve, reject) => pending.set(id, { method, resolve, reject }));
      write({ id, method, params });
      return answer;
    },
    notify(method: string, params?: Json) {
      write(params ? { method, params } : { method });
    },
    respond(id: number | string, result: Json) {
      write({ id, result });
    },
    fail(id: number | string, error: { code: number; message: string }) {
      write({ id, error });
    },
    /** Codex reads its input to the end, then exits. */
    close() {
      try {
        o.stdin.end();
      } catch (error) {
        o.log(`codex stdin: ${String(error)}`);
      }
      closed = true;
    },
    /** Resolves once Codex's stdout has ended. */
    done: reading,
  };
}
