// json-rpc.ts: JSON-RPC 2.0 over a child's stdio, one JSON object per line: the one connection
// behind Codex's app-server (codex/app-server.ts) and any ACP agent (acp/connection.ts). tether is
// the client: it sends requests and notifications; the agent sends notifications and requests of its
// own, which tether answers with respond() or fail(). The dialects differ only in the envelope: ACP
// puts `"jsonrpc":"2.0"` on every message, Codex leaves it out both ways.
//
// Invariants: a malformed or unexpected line is logged and skipped, never thrown; a request whose
// answer never comes is rejected when the agent's stdout ends; nothing is written after close.
import { forEachLine } from './lines.ts';

export type Json = Record<string, unknown>;

export type JsonRpcRequest = { id: number | string; method: string; params: Json };

export class JsonRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number | null,
    message: string,
  ) {
    super(`${method}: ${message}`);
  }
}

/** JSON-RPC's "method not found". */
export const METHOD_NOT_FOUND = -32601;

export type JsonRpcConnection = ReturnType<typeof connectJsonRpc>;

export type JsonRpcOptions = {
  /** The agent's name, in log lines and errors ("codex exited before answering"). */
  name: string;
  /** The protocol's name, in log lines ("codex app-server: not JSON"). */
  dialect: string;
  /** Put `"jsonrpc":"2.0"` on what is sent (ACP does, Codex does not). */
  envelope: boolean;
  /** The id of the first request (then counted up). */
  firstId: number;
  stdin: { write(data: string): unknown; flush(): unknown; end(): unknown };
  stdout: ReadableStream<Uint8Array>;
  log: (line: string) => void;
  onNotification: (method: string, params: Json) => void;
  /** The agent asks; the answer goes back with respond() or fail() (its id). */
  onRequest: (request: JsonRpcRequest) => void;
};

const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

export function connectJsonRpc(o: JsonRpcOptions) {
  const tag = `${o.name} ${o.dialect}`;
  let nextId = o.firstId;
  let closed = false;
  const pending = new Map<number, { method: string; resolve: (result: Json) => void; reject: (error: Error) => void }>();
  const write = (message: Json) => {
    if (closed) return;
    try {
      o.stdin.write(`${JSON.stringify(o.envelope ? { jsonrpc: '2.0', ...message } : message)}\n`);
      const flushed = o.stdin.flush();
      if (flushed instanceof Promise) flushed.catch((error: unknown) => o.log(`${o.name} stdin: ${String(error)}`));
    } catch (error) {
      o.log(`${o.name} stdin: ${String(error)}`);
    }
  };
  const answered = (m: Json) => {
    const waiting = typeof m.id === 'number' ? pending.get(m.id) : undefined;
    if (!waiting) return o.log(`${tag}: an answer to no request of ours (id ${JSON.stringify(m.id)})`);
    pending.delete(m.id as number);
    if (isObject(m.error)) waiting.reject(new JsonRpcError(waiting.method, typeof m.error.code === 'number' ? m.error.code : null, typeof m.error.message === 'string' ? m.error.message : 'error'));
    else waiting.resolve(isObject(m.result) ? m.result : {});
  };
  const onLine = (line: string) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return o.log(`${tag}: not JSON: ${line.slice(0, 120)}`);
    }
    if (!isObject(message)) return o.log(`${tag}: not a JSON-RPC message: ${line.slice(0, 120)}`);
    const params = isObject(message.params) ? message.params : {};
    const hasId = typeof message.id === 'number' || typeof message.id === 'string';
    if (typeof message.method === 'string' && hasId) return o.onRequest({ id: message.id as number | string, method: message.method, params });
    if (typeof message.method === 'string') return o.onNotification(message.method, params);
    if (hasId) return answered(message);
    o.log(`${tag}: a message with no method and no id: ${line.slice(0, 120)}`);
  };
  const safeLine = (line: string) => {
    try {
      onLine(line);
    } catch (error) {
      o.log(`${tag}: handling a line failed: ${String(error)}`);
    }
  };
  const reading = forEachLine(o.stdout, safeLine)
    .catch((error: unknown) => o.log(`${o.name} stdout: ${String(error)}`))
    .finally(() => {
      closed = true;
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(new JsonRpcError(waiting.method, null, `${o.name} exited before answering`));
      }
    });
  return {
    request(method: string, params: Json): Promise<Json> {
      if (closed) return Promise.reject(new JsonRpcError(method, null, `${o.name} has exited`));
      const id = nextId++;
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
    /** The agent reads its input to the end, then exits. */
    close() {
      if (closed) return;
      closed = true;
      try {
        o.stdin.end();
      } catch (error) {
        o.log(`${o.name} stdin: ${String(error)}`);
      }
    },
    /** Resolves once the agent's stdout has ended. */
    done: reading,
  };
}
