// outside-daemon.ts: the daemon's side of conversations tether did not run, as daemon.ts wires it:
// the indexer (outside.ts) over each installed agent's saved conversations, the hub's switch
// (daemon:outside), and the check an adopt passes before a runner starts (adopt-check.ts).
import type { Ack, AgentKind, DaemonSpawn, OutsideIndex } from '@tether/shared';
import { agentFor } from '../agents/index.ts';
import { adoptRefusal } from './adopt-check.ts';
import { createOutsideIndexer } from './outside.ts';

/** Each installed agent's saved conversations (those whose room reads them). */
function conversationSources(agents: readonly AgentKind[]) {
  return agents.flatMap((agent) => {
    const source = agentFor(agent).conversations;
    return source ? [{ agent, source }] : [];
  });
}

export function daemonOutside(o: {
  env: NodeJS.ProcessEnv;
  tetherHome: string;
  agents: readonly AgentKind[];
  send: (batch: OutsideIndex) => void;
  onEvent: (event: { kind: 'outside'; enabled: boolean }) => void;
}) {
  const indexer = createOutsideIndexer({ env: o.env, tetherHome: o.tetherHome, sources: conversationSources(o.agents), send: o.send });
  return {
    /** The hub's switch. */
    switchTo(enabled: boolean): Ack<object> {
      if (enabled) indexer.start();
      else indexer.stop();
      o.onEvent({ kind: 'outside', enabled });
      return { ok: true };
    },
    /** Why this spawn of a found conversation cannot go ahead, or null (any other spawn: null). */
    refusal(request: DaemonSpawn): Ack<never> | null {
      if (!request.adopting) return null;
      const found = request.resumeAgentSessionId ? indexer.find(request.resumeAgentSessionId) : null;
      return adoptRefusal({ request, found, agent: agentFor(request.agent), env: o.env });
    },
    resend: () => indexer.resend(),
    stop: () => indexer.stop(),
  };
}
