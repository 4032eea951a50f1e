// pair.ts: `tether pair [--namespace N [--database postgres://…]] [--json]`: a one-time pairing code
// (10 minutes, one use) and, when the hub has a URL a phone can open, its link `<url>/#pair=<code>`
// and a QR. Scanning it signs the phone in with a device token of its own (`tether token list`
// shows it; `tether token revoke` ends that phone alone). The access token itself never goes in a QR.
//   logged in (tether auth login, or TETHER_HUB_URL + TETHER_TOKEN): POST /api/pair-codes, for the
//     login's namespace; the hub says its phone URL;
//   --namespace N, on the hub's machine: the hub's store directly (as tether token does), with the
//     phone URL the running hub recorded in TETHER_HOME.
import { NamespaceSchema, PairCodeCreatedSchema } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { postHubJson, requireCredentials } from './hub-access.ts';
import { openHubStore } from './hub-store.ts';
import { httpsPhoneUrl, pairingLines, pairLink, recordedPhoneUrl } from './pair-code.ts';

type Made = { namespace: string; code: string; expiresAt: number; base: string | null };

async function fromHub(): Promise<Made> {
  const creds = requireCredentials();
  const made = await postHubJson({ creds, path: '/api/pair-codes', body: {}, schema: PairCodeCreatedSchema, what: 'a pairing code' });
  return { namespace: made.namespace, code: made.code, expiresAt: made.expiresAt, base: httpsPhoneUrl(made.url) };
}

async function fromStore(options: { namespace: string; database: string | undefined }): Promise<Made> {
  const ns = NamespaceSchema.safeParse(options.namespace);
  if (!ns.success) throw new CommandError(`bad namespace "${options.namespace}": 1-63 chars of a-z, 0-9, "_" or "-"`);
  const { createPairCode } = await import('@tether/hub');
  const store = await openHubStore({ database: options.database });
  try {
    const { code, expiresAt } = await createPairCode({ store, namespace: ns.data, createdBy: 'tether pair' });
    return { namespace: ns.data, code, expiresAt, base: recordedPhoneUrl() };
  } finally {
    await store.close();
  }
}

const command: Command = {
  name: 'pair',
  summary: 'a one-time code and QR that signs a phone in (10 minutes, once)',
  usage: 'tether pair [--namespace N (on the hub machine: straight into its store, no login needed) [--database postgres://…]] [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, strings: ['namespace', 'database'], booleans: ['json'] });
    if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`);
    if (flags.database !== undefined && flags.namespace === undefined) throw new CommandError('--database goes with --namespace (the hub machine\'s store)');
    const made = typeof flags.namespace === 'string' ? await fromStore({ namespace: flags.namespace, database: flags.database }) : await fromHub();
    if (flags.json) {
      const url = made.base ? pairLink(made.base, made.code) : null;
      process.stdout.write(`${JSON.stringify({ namespace: made.namespace, code: made.code, expiresAt: made.expiresAt, url })}\n`);
    } else {
      process.stdout.write(`${(await pairingLines(made)).join('\n')}\n`);
    }
    return 0;
  },
};
export default command;
