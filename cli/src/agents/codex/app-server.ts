// app-server.ts: JSON-RPC 2.0 over `codex app-server`'s stdio, one JSON object per line, with the
// "jsonrpc" member left out both ways, as Codex does (../json-rpc.ts). tether is the client: it sends
// requests (initialize, thread/start, turn/start, turn/interrupt…) and notifications; Codex sends
// notifications (turn/started, turn/completed, item/*…) and requests of its own (approvals), which
// tether must answer with a result or an error.
import { connectJsonRpc, JsonRpcError, type JsonRpcOptions, type JsonRpcRequest } from '../json-rpc.ts';

export type AppServerRequest = JsonRpcRequest;
export const AppServerError = JsonRpcError;
export type AppServer = ReturnType<typeof connectAppServer>;

export function connectAppServer(o: Omit<JsonRpcOptions, 'name' | 'dialect' | 'envelope' | 'firstId'>) {
  return connectJsonRpc({ ...o, name: 'codex', dialect: 'app-server', envelope: false, firstId: 1 });
}
