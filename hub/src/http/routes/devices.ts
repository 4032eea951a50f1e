// devices.ts (routes): the caller's namespace's paired devices (behind the bearer middleware).
//   GET    /api/devices      → { devices }: label, paired, last use, which one is the caller's
//   DELETE /api/devices/:id  → that device revoked (and every device it paired), its sockets and
//                              push subscriptions gone now; a paired device may revoke only itself,
//                              the owner (signed in with an access token) any device
import { Hono } from 'hono';
import { TokenIdSchema, type DeviceList } from '@tether/shared';
import type { Devices } from '../../auth/devices.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError } from '../errors.ts';

export function createDeviceRoutes(options: { devices: Devices }) {
  const app = new Hono<HubHttpEnv>();
  app.get('/', async (c) => {
    const caller = c.get('caller');
    const list: DeviceList = {
      devices: await options.devices.list({ namespace: caller.namespace, currentTokenId: caller.tokenId }),
      canRevokeOthers: await options.devices.mayRevokeOthers(caller),
      idleDays: options.devices.idleDays,
    };
    return c.json(list);
  });
  app.delete('/:id', async (c) => {
    const id = TokenIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return httpError(c, { code: 'bad_request', error: 'not a device id' });
    const result = await options.devices.revokeDevice({ caller: c.get('caller'), id: id.data });
    if (result.kind === 'forbidden') return httpError(c, { code: 'forbidden', error: 'a paired device may sign out only itself; sign out others from a browser signed in with the access token, or tether token revoke' });
    if (result.kind === 'not_found') return httpError(c, { code: 'not_found', error: 'no such device in this namespace' });
    return c.json({ ok: true as const, revoked: result.ids.length });
  });
  return app;
}
