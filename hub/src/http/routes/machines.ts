// machines.ts (routes): the machines (daemons) registered in the caller's namespace, and the
// conversations found on one of them (outside/: a page, newest first, searched by title and folder).
import { Hono } from 'hono';
import { MachineIdSchema, OutsideListQuerySchema } from '@tether/shared';
import type { MachineQueries } from '../../machines/machines.ts';
import type { Outside } from '../../outside/outside.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError } from '../errors.ts';

export function createMachineRoutes(options: { machines: MachineQueries; outside?: Outside }) {
  const app = new Hono<HubHttpEnv>();
  app.get('/', async (c) => c.json({ machines: await options.machines.list(c.get('caller').namespace) }));
  app.get('/:id/outside', async (c) => {
    const id = MachineIdSchema.safeParse(c.req.param('id'));
    // Not a machine id at all answers as a machine of no one's: the same 404.
    if (!id.success || !options.outside) return httpError(c, { code: 'not_found', error: 'no such machine' });
    const query = OutsideListQuerySchema.safeParse(c.req.query());
    if (!query.success) return httpError(c, { code: 'bad_request', error: query.error.issues[0]?.message ?? 'bad query' });
    const page = await options.outside.list(c.get('caller').namespace, id.data, query.data);
    if (!page) return httpError(c, { code: 'not_found', error: 'no such machine' });
    c.header('Cache-Control', 'no-store');
    return c.json(page);
  });
  return app;
}
