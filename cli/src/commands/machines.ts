// machines.ts: `tether machines [--json]`: the machines (daemons) of this user's namespace.
import { MachineListSchema, type Machine } from '@tether/shared';
import { getHubJson, requireCredentials } from './hub-access.ts';
import { listingVerb, textTable } from './listing.ts';

function table(machines: Machine[]): string {
  return textTable([['ID', 'NAME', 'ONLINE', 'USER', 'OS'], ...machines.map((m) => [m.id, m.name, m.online ? 'yes' : 'no', m.user, m.os])]);
}

export default listingVerb({
  name: 'machines',
  summary: 'list machines (id, name, online)',
  usage: 'tether machines [--json]',
  key: 'machines',
  fetch: async () => (await getHubJson({ creds: requireCredentials(), path: '/api/machines', schema: MachineListSchema, what: 'a machine list' })).machines,
  text: table,
  empty: 'no machines (run tether daemon on one)',
});
