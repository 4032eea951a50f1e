// connection.ts: JSON-RPC 2.0 over an ACP agent's stdio (Agent Client Protocol), one JSON object per
// line, `"jsonrpc":"2.0"` on every message (../json-rpc.ts). tether is the client: it sends requests
// (initialize, session/new, session/load, session/prompt, session/set_model) and notifications
// (session/cancel); the agent sends notifications (session/update) and requests of its own
// (session/request_permission, fs/*, terminal/*), which tether must answer with a result or an error.
import { connectJsonRpc, JsonRpcError, type JsonRpcOptions, type JsonRpcRequest } from '../json-rpc.ts';

export { METHOD_NOT_FOUND } from '../json-rpc.ts';
export type AcpRequest = JsonRpcRequest;
export const AcpError = JsonRpcError;
export type AcpConnection = ReturnType<typeof connectAcp>;

export function connectAcp(o: Omit<JsonRpcOptions, 'dialect' | 'envelope' | 'firstId'>) {
  return connectJsonRpc({ ...o, dialect: 'acp', envelope: true, firstId: 0 });
}
