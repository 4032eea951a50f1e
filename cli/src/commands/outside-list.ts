// outside-list.ts: `tether sessions --outside [--machine M] [--json]`: the conversations found on this
// user's machines that tether did not run (shared outside.ts), newest first, each machine's whole list
// (page by page). `--json` prints `{ machines: [{ machineId, machineName, enabled, sessions }] }`.
// A machine whose finding is off says how to switch it on.
import { MachineListSchema, OUTSIDE_PAGE_MAX, OutsideListResponseSchema, type Machine, type OutsideSession } from '@tether/shared';
import { CommandError } from './command.ts';
import type { Credentials } from '../config/credentials.ts';
import { getHubJson, requireCredentials } from './hub-access.ts';
import { pickMachine } from '../web-client/session-control.ts';
import { ago, textTable } from './listing.ts';

/** At most this many of one machine (the phone pages further). */
const MAX_LISTED = 5_000;

async function machineList(creds: Credentials, machine: Machine) {
  const sessions: OutsideSession[] = [];
  let enabled = false;
  for (let offset = 0; offset < MAX_LISTED; offset += OUTSIDE_PAGE_MAX) {
    const page = await getHubJson({ creds, path: `/api/machines/${machine.id}/outside?offset=${offset}&limit=${OUTSIDE_PAGE_MAX}`, schema: OutsideListResponseSchema, what: 'a list of found conversations' });
    enabled = page.enabled;
    sessions.push(...page.sessions);
    if (!page.more) break;
  }
  return { machineId: machine.id, machineName: machine.name, enabled, sessions };
}

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);

export async function listOutside(options: { json: boolean; machine: string | null }): Promise<number> {
  const creds = requireCredentials();
  const { machines } = await getHubJson({ creds, path: '/api/machines', schema: MachineListSchema, what: 'a machine list' });
  let chosen = machines;
  if (options.machine !== null) {
    const picked = pickMachine(machines, options.machine);
    if (typeof picked === 'string') throw new CommandError(picked);
    chosen = [picked];
  }
  const lists = await Promise.all(chosen.map((m) => machineList(creds, m)));
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ machines: lists })}\n`);
    return 0;
  }
  if (lists.length === 0) process.stdout.write('no machines (run tether daemon --outside on one)\n');
  for (const list of lists) {
    process.stdout.write(`${list.machineName} (${list.machineId})\n`);
    if (!list.enabled) process.stdout.write('  finding conversations is off: start tether daemon --outside there, or switch it on on the machine\'s page\n');
    else if (list.sessions.length === 0) process.stdout.write('  nothing found\n');
    else {
      const rows = [['ID', 'AGENT', 'LAST', 'SIZE', 'LIVE', 'FOLDER', 'TITLE'], ...list.sessions.map((s) => [s.agentSessionId, s.agent, ago(s.lastActivity), size(s.sizeBytes), s.live ? 'live' : '', s.folder, s.title])];
      process.stdout.write(`${textTable(rows).replace(/^/gm, '  ')}\n`);
    }
  }
  return 0;
}
