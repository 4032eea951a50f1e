// machines.ts (routes): the machines (daemons) registered in the caller's namespace.
import { Hono } from 'hono';
import type { MachineQueries } from '../../machines/machines.ts';
import type { HubHttpEnv } from '../env.ts';

export function createMachineRoutes(options: { machines: MachineQueries }) {
  const app = new Hono<HubHttpEnv>();
  app.get('/', async (c) => c.json({ machines: await options.machines.list(c.get('caller').namespace) }));
  return app;
}
