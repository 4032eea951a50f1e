// machines.ts: `tether machines [--json]`: the machines (daemons) of this user's namespace.
import { MachineListSchema, type Machine } from '@tether/shared';
import type { Command } from './command.ts';
import { getHubJson, requireCredentials } from './hub-access.ts';
import { runListing, textTable } from './listing.ts';

function table(machines: Machine[]): string {
  return textTable([['ID', 'NAME', 'ONLINE', 'USER', 'OS'], ...machines.map((m) => [m.id, m.name, m.online ? 'yes' : 'no', m.user, m.os])]);
}

async function fetchMachines(): Promise<Machine[]> {
  const { machines } = await getHubJson({ creds: requireCredentials(), path: '/api/machines', schema: MachineListSchema, what: 'a machine list' });
  return machines;
}

const command: Command = {
  name: 'machines',
  summary: 'list machines (id, name, online)',
  usage: 'tether machines [--json]',
  run: (args) => runListing(args, { key: 'machines', fetch: fetchMachines, text: table, empty: 'no machines (run tether daemon on one)' }),
};
export default command;
