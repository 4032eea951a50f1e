// sessions.ts: `tether sessions [--json]`: the sessions of this user's namespace, over REST with the
// saved (or TETHER_HUB_URL / TETHER_TOKEN) credentials, with the machine each runs on.
// `--json` prints `{ sessions: [Session & { machineName }] }`; machineName is null for a session
// started at a desk (`tether claude`, machineId null) or on a machine the hub no longer knows.
// The table marks pinned and archived sessions in STATUS (`idle, pinned`, `ended, archived`), as
// the phone's list keeps them; it lists every session, archived ones too.
import { isArchived, MachineListSchema, SessionListSchema, type Session } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { getHubJson, requireCredentials } from './hub-access.ts';
import { ago, listingVerb, textTable } from './listing.ts';

export type ListedSession = Session & { machineName: string | null };


/** The MACHINE column: the machine's name, "desk" for a desk session, the id's head when unknown. */
export function machineLabel(s: ListedSession): string {
  if (s.machineId === null) return 'desk';
  return s.machineName ?? s.machineId.slice(0, 8);
}

/** The STATUS cell: the status and the person's marks. */
export function statusLabel(s: Session): string {
  const marks = [s.pinnedAt != null ? 'pinned' : null, isArchived(s) ? 'archived' : null].filter(Boolean);
  return [s.status, ...marks].join(', ');
}

/** Rows as a table; `numbered` adds a "#" column (the attach picker). */
export function sessionTable(sessions: ListedSession[], options: { numbered?: boolean } = {}): string {
  const head = ['ID', 'MACHINE', 'STATUS', 'KIND', 'PENDING', 'UPDATED', 'TITLE / CWD'];
  const rows = [
    options.numbered ? ['#', ...head] : head,
    ...sessions.map((s, i) => {
      const row = [s.id, machineLabel(s), statusLabel(s), s.launchKind, String(s.pendingCount), ago(s.updatedAt), s.title || s.cwd];
      return options.numbered ? [String(i + 1), ...row] : row;
    }),
  ];
  return textTable(rows);
}


/** Sessions of the logged-in namespace, each with its machine's name. */
export async function fetchSessions(): Promise<ListedSession[]> {
  const creds = requireCredentials();
  const [{ sessions }, { machines }] = await Promise.all([
    getHubJson({ creds, path: '/api/sessions', schema: SessionListSchema, what: 'a session list' }),
    getHubJson({ creds, path: '/api/machines', schema: MachineListSchema, what: 'a machine list' }),
  ]);
  const names = new Map(machines.map((m) => [m.id, m.name]));
  return sessions.map((s) => ({ ...s, machineName: s.machineId === null ? null : (names.get(s.machineId) ?? null) }));
}

const listing = listingVerb({
  name: 'sessions',
  summary: 'list sessions',
  usage: 'tether sessions [--json]',
  key: 'sessions',
  fetch: fetchSessions,
  text: sessionTable,
  empty: 'no sessions',
});

/** `tether sessions`, and with --outside the conversations found on this user's machines. */
export default {
  ...listing,
  usage: 'tether sessions [--json] | tether sessions --outside [--machine M] [--json] (conversations found on your machines that tether did not run)',
  async run(args) {
    const { flags } = parseFlags({ args, booleans: ['json', 'outside'], strings: ['machine'] });
    if (flags.outside) return (await import('./outside-list.ts')).listOutside({ json: flags.json === true, machine: typeof flags.machine === 'string' ? flags.machine : null });
    if (flags.machine !== undefined) throw new CommandError('--machine goes with --outside');
    return listing.run(args);
  },
} satisfies Command;
