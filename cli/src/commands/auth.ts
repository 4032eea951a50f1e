// auth.ts: `tether auth login|logout|status`: the hub URL and token this user's tether talks to.
// Login checks the token against the hub before saving it (0600, via config/credentials.ts).
// The token itself is never printed; status shows only its prefix.
import { CommandError, parseFlags, type Command } from './command.ts';
import { loadCredentials, removeCredentials, saveCredentials } from '../config/credentials.ts';
import { tetherPaths } from '../config/paths.ts';

/** A hub that does not answer by then is unreachable for a CLI user waiting at the prompt. */
const REQUEST_TIMEOUT_MS = 10_000;

type Probe = { kind: 'ok'; sessions: number } | { kind: 'refused'; status: number } | { kind: 'unreachable'; reason: string };

async function probeHub(options: { hubUrl: string; token: string }): Promise<Probe> {
  try {
    const res = await fetch(`${options.hubUrl}/api/sessions`, {
      headers: { authorization: `Bearer ${options.token}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!res.ok) return { kind: 'refused', status: res.status };
    const body = (await res.json()) as { sessions?: unknown[] };
    return { kind: 'ok', sessions: Array.isArray(body.sessions) ? body.sessions.length : 0 };
  } catch (error) {
    return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
  }
}

function normalizeHubUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CommandError(`--hub must be a URL like http://127.0.0.1:8787, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CommandError('--hub must be an http:// or https:// URL');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

const command: Command = {
  name: 'auth',
  summary: 'store, show or remove the hub URL and token for this user',
  usage: 'tether auth login --hub URL --token T | tether auth logout | tether auth status [--json]',
  async run(args) {
    const [sub, ...rest] = args;
    const { flags, positionals } = parseFlags({ args: rest, strings: ['hub', 'token'], booleans: ['json'] });
    if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`);
    switch (sub) {
      case 'login': {
        if (typeof flags.hub !== 'string' || typeof flags.token !== 'string') throw new CommandError('usage: tether auth login --hub URL --token T');
        const hubUrl = normalizeHubUrl(flags.hub);
        const probe = await probeHub({ hubUrl, token: flags.token });
        if (probe.kind === 'unreachable') throw new CommandError(`cannot reach the hub at ${hubUrl}: ${probe.reason}`);
        if (probe.kind === 'refused') {
          throw new CommandError(probe.status === 401 ? `the hub at ${hubUrl} refused this token (unknown or revoked)` : `the hub at ${hubUrl} answered HTTP ${probe.status}`);
        }
        const file = saveCredentials({ hubUrl, token: flags.token });
        process.stdout.write(flags.json ? `${JSON.stringify({ hubUrl, saved: file })}\n` : `logged in to ${hubUrl} (saved in ${file})\n`);
        return 0;
      }
      case 'logout': {
        const removed = removeCredentials();
        process.stdout.write(flags.json ? `${JSON.stringify({ removed })}\n` : removed ? 'logged out\n' : 'not logged in\n');
        return 0;
      }
      case 'status': {
        const creds = loadCredentials();
        if (!creds) {
          if (flags.json) process.stdout.write(`${JSON.stringify({ loggedIn: false })}\n`);
          else process.stdout.write(`not logged in (run tether auth login --hub URL --token T; file: ${tetherPaths().credentials})\n`);
          return 1;
        }
        const source = process.env.TETHER_HUB_URL || process.env.TETHER_TOKEN ? 'env' : 'file';
        const probe = await probeHub(creds);
        const tokenPrefix = `${creds.token.slice(0, 8)}…`;
        const state = probe.kind === 'ok' ? 'ok' : probe.kind === 'refused' ? `refused (HTTP ${probe.status})` : `unreachable (${probe.reason})`;
        if (flags.json) {
          process.stdout.write(
            `${JSON.stringify({ loggedIn: true, hubUrl: creds.hubUrl, source, tokenPrefix, hub: probe.kind, ...(probe.kind === 'ok' ? { sessions: probe.sessions } : {}) })}\n`,
          );
        } else {
          process.stdout.write(`hub: ${creds.hubUrl} (${source})\ntoken: ${tokenPrefix}\nstatus: ${state}\n`);
        }
        return probe.kind === 'ok' ? 0 : 1;
      }
      default:
        throw new CommandError(`usage: ${command.usage}`, 2);
    }
  },
};
export default command;
