// pair-code.ts: what `tether hub` and `tether pair` share about showing a pairing code: which base URL
// a phone can open, the `<url>/#pair=<code>` link and its QR, and the phone URL a running hub records
// in TETHER_HOME for `tether pair --namespace`. Not a verb.
//
// Invariant: no loopback URL (127.x, localhost, ::1) is ever put in a QR or printed as a phone's link:
// a phone that opens one reaches itself, and a link that cannot work teaches people to distrust them.
// The phone URL file is written by the reach room (cli/src/reach/reach.ts) once its TLS gate passed.
import { existsSync, readFileSync } from 'node:fs';
import { isLoopbackHost, isUnspecifiedHost } from '@tether/shared';
import type { Store } from '@tether/hub';
import { tetherPaths } from '../config/paths.ts';
import { typedTether } from '../config/build.ts';

/** Whether `url` names this machine's loopback (a phone could never reach it). */
export function isLoopbackUrl(url: URL): boolean {
  return isLoopbackHost(url.hostname) || isUnspecifiedHost(url.hostname);
}

/** `url` as a phone's base URL if it is one: https, not loopback; null otherwise. */
export function httpsPhoneUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || isLoopbackUrl(parsed)) return null;
  return parsed.origin + parsed.pathname.replace(/\/+$/, '');
}

/** The link a phone opens: the code in the fragment, which never leaves the phone. */
export function pairLink(base: string, code: string): string {
  return `${base.replace(/\/+$/, '')}/#pair=${code}`;
}

export async function qrCode(text: string): Promise<string> {
  const qrcode = (await import('qrcode-terminal')).default;
  return new Promise((done) => qrcode.generate(text, { small: true }, done));
}

/** The phone URL the hub on this machine recorded, if it is one a phone can open. */
export function recordedPhoneUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  const file = tetherPaths(env).phoneUrl;
  return existsSync(file) ? httpsPhoneUrl(readFileSync(file, 'utf8').trim()) : null;
}

function expiryText(expiresAt: number): string {
  const minutes = Math.max(1, Math.round((expiresAt - Date.now()) / 60_000));
  return `one use, until ${new Date(expiresAt).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })} (${minutes} minutes from now)`;
}

/** What `tether pair` prints (and `tether hub` at start, with its own `base`): the link and its QR,
 *  or, without a base URL, the code and plainly why there is no link. */
export async function pairingLines(options: { namespace: string; code: string; expiresAt: number; base: string | null }): Promise<string[]> {
  const head = `pairing code for namespace "${options.namespace}" (${expiryText(options.expiresAt)}):`;
  if (options.base) {
    const link = pairLink(options.base, options.code);
    return [head, `open on your phone (or scan): ${link}`, await qrCode(link)];
  }
  return [
    head,
    '',
    `  ${options.code}`,
    '',
    `no URL a phone can open is configured for this hub, so there is no link or QR: start ${typedTether()} hub with --public-url https://… or --tailscale, then run ${typedTether()} pair again.`,
    "(A phone that already shows this hub's sign-in page can take the code pasted there.)",
  ];
}

/** `tether hub` at every start: a fresh code's link and QR for the phone URL reach chose (https and
 *  checked, or the LAN's http); without one, a link for a browser on this machine only, no QR. */
export async function hubStartPairing(options: { store: Store; namespace: string; phoneUrl: string | null; localUrl: string }): Promise<string[]> {
  const phone = options.phoneUrl && !isLoopbackUrl(new URL(options.phoneUrl)) ? options.phoneUrl : null;
  const { createPairCode } = await import('@tether/hub');
  const { code, expiresAt } = await createPairCode({ store: options.store, namespace: options.namespace, createdBy: 'tether hub' });
  if (!phone) {
    return [`open on this machine: ${pairLink(options.localUrl, code)}`, `${expiryText(expiresAt)}; for a phone, see the "phone:" line above`];
  }
  return ['', ...(await pairingLines({ namespace: options.namespace, code, expiresAt, base: phone })), `another code: ${typedTether()} pair`];
}
