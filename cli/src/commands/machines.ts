// machines.ts: `tether machines [--json]`: the machines (daemons) of this user's namespace.
import { MachineListSchema, type Machine } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { getHubJson, requireCredentials } from './hub-access.ts';

function table(machines: Machine[]): string {
  const rows = [['ID', 'NAME', 'ONLINE', 'USER', 'OS'], ...machines.map((m) => [m.id, m.name, m.online ? 'yes' : 'no', m.user, m.os])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

const command: Command = {
  name: 'machines',
  summary: 'list machines (id, name, online)',
  usage: 'tether machines [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json'] });
    if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`);
    const creds = requireCredentials();
    const { machines } = await getHubJson({ creds, path: '/api/machines', schema: MachineListSchema, what: 'a machine list' });
    if (flags.json) process.stdout.write(`${JSON.stringify({ machines })}\n`);
    else process.stdout.write(machines.length ? `${table(machines)}\n` : 'no machines (run tether daemon on one)\n');
    return 0;
  },
};
export default command;
