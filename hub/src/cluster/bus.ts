// bus.ts: facts every other hub of the cluster hears (serverSideEmit through the PostgreSQL
// adapter), each parsed with its shared schema on arrival. Without a cluster it is a no-op: a lone
// hub hears nothing and its requests get no answers.
//
//   this hub ─tell(fact)─► adapter ─► every other hub's listeners (never this one)
//   this hub ─ask(fact)──► … ◄─ one answer per other hub (the adapter waits ≤ 5 s for a hub that
//                               just died and is not yet forgotten; the answers that came count)
import type { Server } from 'socket.io';
import { ClusterFactSchemas, type ClusterFact } from '@tether/shared';
import type { z } from 'zod';

type Payload<F extends ClusterFact> = z.output<(typeof ClusterFactSchemas)[F]>;
type Listener<F extends ClusterFact> = (payload: Payload<F>) => unknown;

export type ClusterBus = ReturnType<typeof createClusterBus>;

export function createClusterBus(options: { io: Server; enabled: boolean; onError: (what: string, error: unknown) => void }) {
  const listeners = new Map<ClusterFact, Listener<ClusterFact>>();
  if (options.enabled) {
    options.io.on('tether:fact', (fact: unknown, payload: unknown, reply?: unknown) => {
      const answer = typeof reply === 'function' ? (reply as (value: unknown) => void) : () => {};
      try {
        if (typeof fact !== 'string' || !Object.hasOwn(ClusterFactSchemas, fact)) return answer(null);
        const parsed = ClusterFactSchemas[fact as ClusterFact].safeParse(payload);
        const listener = listeners.get(fact as ClusterFact);
        if (!parsed.success || !listener) return answer(null);
        Promise.resolve(listener(parsed.data)).then(answer, (error: unknown) => {
          options.onError(`cluster fact ${fact}`, error);
          answer(null);
        });
      } catch (error) {
        options.onError(`cluster fact ${String(fact)}`, error);
        answer(null);
      }
    });
  }
  return {
    enabled: options.enabled,
    on<F extends ClusterFact>(fact: F, listener: (payload: Payload<F>) => unknown): void {
      listeners.set(fact, listener as Listener<ClusterFact>);
    },
    tell<F extends ClusterFact>(fact: F, payload: Payload<F>): void {
      if (!options.enabled) return;
      try {
        options.io.serverSideEmit('tether:fact', fact, payload);
      } catch (error) {
        options.onError(`cluster fact ${fact}`, error);
      }
    },
    /** Every other hub's answer (null from hubs that had nothing to say); [] without a cluster. */
    async ask<F extends ClusterFact>(fact: F, payload: Payload<F>): Promise<unknown[]> {
      if (!options.enabled) return [];
      return new Promise((resolve) => {
        options.io.serverSideEmit('tether:fact', fact, payload, (error: unknown, answers: unknown[]) => {
          // On a timeout the answers that did arrive still count.
          resolve(Array.isArray(answers) ? answers : []);
          if (error) options.onError(`cluster fact ${fact}`, error);
        });
      });
    },
  };
}
