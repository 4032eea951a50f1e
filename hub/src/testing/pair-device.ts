// pair-device.ts: a phone paired the way a person pairs one (a code the access token made, then
// POST /api/auth/pair), for tests of what a device makes and what its revocation takes with it.
import { LoginResponseSchema, PairCodeCreatedSchema } from '@tether/shared';
import type { Store } from '../store/store.ts';

/** The paired phone's web session (a socket's token) and its device token's id (DELETE /api/devices/<id> signs it out). */
export async function pairDevice(o: { url: string; accessToken: string; store: Store }): Promise<{ session: string; tokenId: string }> {
  const code = PairCodeCreatedSchema.parse(await (await fetch(`${o.url}/api/pair-codes`, { method: 'POST', headers: { authorization: `Bearer ${o.accessToken}` } })).json()).code;
  const before = new Set((await o.store.listTokens()).map((t) => t.id));
  const paired = await fetch(`${o.url}/api/auth/pair`, { method: 'POST', body: JSON.stringify({ code }), headers: { 'content-type': 'application/json', origin: o.url } });
  const login = LoginResponseSchema.parse(await paired.json());
  const tokenId = (await o.store.listTokens()).find((t) => !before.has(t.id))!.id;
  return { session: login.session, tokenId };
}
