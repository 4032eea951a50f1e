// agent-name.ts: the open session's agent as people call it ("Codex", "Claude"), for the sentences
// of every screen inside the session (the approval sheet, the chat, the composer). The session
// layout provides it from the session's capabilities; outside a session it is "the agent".
import { createContext, useContext } from 'react';

export const AgentNameContext = createContext('The agent');

export function useAgentName(): string {
  return useContext(AgentNameContext);
}
