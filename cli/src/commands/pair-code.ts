// pair-code.ts: what `tether hub` and `tether pair` share about showing a pairing code: which base URL
// a phone can open, the `<url>/#pair=<code>` link and its QR, and the phone URL a running hub records
// in TETHER_HOME for `tether pair --namespace`. Not a verb.
//
// Invariant: no loopback URL (127.x, localhost, ::1) is ever put in a QR or printed as a phone's link:
// a phone that opens one reaches itself, and a link that cannot work teaches people to distrust them.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Store } from '@tether/hub';
import { tetherPaths } from '../config/paths.ts';

/** Whether `url` names this machine's loopback (a phone could never reach it). */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host) || host === '0.0.0.0' || host === '::';
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

/** `tether hub` at start: records its https phone URL (or forgets an old one) for `tether pair`. */
export function recordPhoneUrl(url: string | null, env: NodeJS.ProcessEnv = process.env): void {
  const file = tetherPaths(env).phoneUrl;
  const phone = httpsPhoneUrl(url);
  if (phone) writeFileSync(file, `${phone}\n`, { mode: 0o600 });
  else if (existsSync(file)) rmSync(file);
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
    'no URL a phone can open is configured for this hub, so there is no link or QR: start tether hub with --public-url https://… or --tailscale, then run tether pair again.',
    "(A phone that already shows this hub's sign-in page can take the code pasted there.)",
  ];
}

/** `tether hub` at every start: records the phone URL and, when a phone can open the hub (`publicUrl`,
 *  or the LAN URL of a hub bound to every interface), prints a fresh code's link and QR; else one line
 *  on how to get one. */
export async function hubStartPairing(options: { store: Store; namespace: string; publicUrl: string | null; lanUrl: string | null; env?: NodeJS.ProcessEnv }): Promise<string[]> {
  recordPhoneUrl(options.publicUrl, options.env);
  const lan = options.lanUrl && !isLoopbackUrl(new URL(options.lanUrl)) ? options.lanUrl : null;
  const base = httpsPhoneUrl(options.publicUrl) ?? lan;
  if (!base) {
    return ['pair a phone: this hub has no URL a phone can open yet; start it with --public-url https://… or --tailscale, then run tether pair for a QR'];
  }
  const { createPairCode } = await import('@tether/hub');
  const { code, expiresAt } = await createPairCode({ store: options.store, namespace: options.namespace, createdBy: 'tether hub' });
  return ['', ...(await pairingLines({ namespace: options.namespace, code, expiresAt, base })), 'another code: tether pair'];
}
