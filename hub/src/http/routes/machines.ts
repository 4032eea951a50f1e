// machines.ts (routes): the machines (daemons) registered in the caller's namespace.
import { Hono } from 'hono';
import type { Store } from '../../store/store.ts';
import type { HubHttpEnv } from '../app.ts';

export function createMachineRoutes(options: { store: Store }) {
  const app = new Hono<HubHttpEnv>();
  app.get('/', async (c) => c.json({ machines: await options.store.listMachines({ namespace: c.get('caller').namespace }) }));
  return app;
}
