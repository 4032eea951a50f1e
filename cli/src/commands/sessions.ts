// sessions.ts: `tether sessions [--json]`: the sessions of this user's namespace, over REST with the
// saved (or TETHER_HUB_URL / TETHER_TOKEN) credentials.
import { SessionListSchema, type Session } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { loadCredentials } from '../config/credentials.ts';

/** A hub that does not answer by then is unreachable for a CLI user waiting at the prompt. */
const REQUEST_TIMEOUT_MS = 10_000;

function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

function table(sessions: Session[]): string {
  const rows = [
    ['ID', 'STATUS', 'KIND', 'PENDING', 'UPDATED', 'TITLE / CWD'],
    ...sessions.map((s) => [s.id, s.status, s.launchKind, String(s.pendingCount), ago(s.updatedAt), s.title || s.cwd]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

const command: Command = {
  name: 'sessions',
  summary: 'list sessions',
  usage: 'tether sessions [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json'] });
    if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`);
    const creds = loadCredentials();
    if (!creds) throw new CommandError('not logged in: run tether auth login --hub URL --token T (or set TETHER_HUB_URL and TETHER_TOKEN)');
    let res: Response;
    try {
      res = await fetch(`${creds.hubUrl}/api/sessions`, {
        headers: { authorization: `Bearer ${creds.token}` },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new CommandError(`cannot reach the hub at ${creds.hubUrl}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (res.status === 401) throw new CommandError('the hub refused the token (unknown or revoked); run tether auth login again');
    if (!res.ok) throw new CommandError(`the hub answered HTTP ${res.status}`);
    const parsed = SessionListSchema.safeParse(await res.json().catch(() => null));
    if (!parsed.success) throw new CommandError('the hub sent a session list this tether does not understand (version mismatch?)');
    const { sessions } = parsed.data;
    if (flags.json) process.stdout.write(`${JSON.stringify({ sessions })}\n`);
    else process.stdout.write(sessions.length ? `${table(sessions)}\n` : 'no sessions\n');
    return 0;
  },
};
export default command;
