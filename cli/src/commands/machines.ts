// machines.ts: `tether machines [--json]`: the machines (daemons) of this user's namespace.
import { MachineListSchema, type Machine } from '@tether/shared';
import { loadCredentials } from '../config/credentials.ts';
import { CommandError, parseFlags, type Command } from './command.ts';

/** A hub that does not answer by then is unreachable for a CLI user waiting at the prompt. */
const REQUEST_TIMEOUT_MS = 10_000;

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
    const creds = loadCredentials();
    if (!creds) throw new CommandError('not logged in: run tether auth login --hub URL --token T (or set TETHER_HUB_URL and TETHER_TOKEN)');
    let res: Response;
    try {
      res = await fetch(`${creds.hubUrl}/api/machines`, { headers: { authorization: `Bearer ${creds.token}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (error) {
      throw new CommandError(`cannot reach the hub at ${creds.hubUrl}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (res.status === 401) throw new CommandError('the hub refused the token (unknown or revoked); run tether auth login again');
    if (!res.ok) throw new CommandError(`the hub answered HTTP ${res.status}`);
    const parsed = MachineListSchema.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw new CommandError('the hub sent a machine list this tether does not understand (version mismatch?)');
    const { machines } = parsed.data;
    if (flags.json) process.stdout.write(`${JSON.stringify({ machines })}\n`);
    else process.stdout.write(machines.length ? `${table(machines)}\n` : 'no machines (run tether daemon on one)\n');
    return 0;
  },
};
export default command;
