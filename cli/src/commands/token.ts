// token.ts: `tether token create|list|revoke`, run on the hub machine. Works directly on the hub's
// SQLite DB under TETHER_HOME (WAL lets it write while the hub runs); the hub sees a revocation on
// the next request or connection of that token, and its live sockets close within one sweep (30 s).
// Revoking a token revokes every device paired from it (its pairing codes), on down.
import { NamespaceSchema, MAX_LABEL_CHARS, type TokenInfo } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { openHubStore } from './hub-store.ts';
import { textTable } from './listing.ts';

const USAGE = [
  'tether token create --namespace NAME [--label L] [--json]',
  '       tether token list [--json]',
  '       tether token revoke <id>',
  '       (each takes --database postgres://… or TETHER_DATABASE_URL when the hub runs on PostgreSQL)',
].join('\n');

function formatTime(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
}

function table(tokens: TokenInfo[]): string {
  const rows = [
    ['ID', 'NAMESPACE', 'LABEL', 'CREATED', 'LAST USED', 'REVOKED', 'PAIRED BY'],
    ...tokens.map((t) => [t.id, t.namespace, t.label || '-', formatTime(t.createdAt), formatTime(t.lastUsedAt), formatTime(t.revokedAt), t.parentId ?? '-']),
  ];
  return textTable(rows);
}

const command: Command = {
  name: 'token',
  summary: 'create, list or revoke access tokens (on the hub machine)',
  usage: USAGE,
  async run(args) {
    const [sub, ...rest] = args;
    const { flags, positionals } = parseFlags({ args: rest, strings: ['namespace', 'label', 'database'], booleans: ['json'] });
    const { createAccessToken } = await import('@tether/hub');
    const store = await openHubStore({ database: typeof flags.database === 'string' ? flags.database : undefined });
    try {
      switch (sub) {
        case 'create': {
          if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`);
          const ns = NamespaceSchema.safeParse(flags.namespace);
          if (typeof flags.namespace !== 'string') throw new CommandError('--namespace NAME is required');
          if (!ns.success) throw new CommandError(`bad namespace "${flags.namespace}": 1-63 chars of a-z, 0-9, "_" or "-"`);
          const label = typeof flags.label === 'string' ? flags.label : '';
          if (label.length > MAX_LABEL_CHARS) throw new CommandError(`--label is longer than ${MAX_LABEL_CHARS} characters`);
          const { token, info } = await createAccessToken({ store, namespace: ns.data, label });
          if (flags.json) {
            process.stdout.write(`${JSON.stringify({ ...info, token })}\n`);
          } else {
            process.stdout.write(`created ${info.id} for namespace "${info.namespace}". The token is shown only this once:\n\n  ${token}\n\n`);
          }
          return 0;
        }
        case 'list': {
          if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`);
          const tokens = await store.listTokens();
          process.stdout.write(flags.json ? `${JSON.stringify({ tokens })}\n` : tokens.length ? `${table(tokens)}\n` : 'no tokens\n');
          return 0;
        }
        case 'revoke': {
          const id = positionals[0];
          if (!id || positionals.length > 1) throw new CommandError('usage: tether token revoke <id>');
          const ids = await store.revokeToken({ id, at: Date.now() });
          if (!ids.includes(id)) {
            const existing = await store.getToken({ id });
            throw new CommandError(existing ? `token ${id} is already revoked` : `no token with id ${id} (see tether token list)`);
          }
          const paired = ids.filter((x) => x !== id);
          const also = paired.length === 0 ? '' : ` and ${paired.length} device${paired.length === 1 ? '' : 's'} paired from it (${paired.join(', ')})`;
          process.stdout.write(flags.json ? `${JSON.stringify({ id, revoked: true, devices: paired })}\n` : `revoked ${id}${also}\n`);
          return 0;
        }
        default:
          throw new CommandError(`usage: ${USAGE}`, 2);
      }
    } finally {
      await store.close();
    }
  },
};
export default command;
