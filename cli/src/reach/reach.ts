// reach.ts: how a phone reaches the hub, decided once per `tether hub` start. It owns the order of
// the URL the QR shows (`--public-url`, then the Tailscale name, then a LAN http address when bound
// to the network; never a loopback one), the TLS gate before an https URL is shown, the
// TETHER_HOME/phone-url file (`tether pair` reads it) and undoing Tailscale on stop.
//
//   before the hub starts  prepareReach ─► flags checked, Tailscale status read ─► names for the
//                                          hub's Host allowlist and origins
//   after it listens       openReach ─► tailscale serve ─► TLS gate ─► { phoneUrl, lines, close }
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { rmSync, writeFileSync } from 'node:fs';
import { isLoopbackHost } from '@tether/shared';
import { PHONE_URL_FILE } from '../config/paths.ts';
import type { TailscaleMode } from './flags.ts';
import { publish, readStatus, statusProblem, type Run, type TailscaleStatus } from './tailscale.ts';
import { describeGate, type GateResult } from './tls-gate.ts';

export type PreparedReach = {
  publicUrl: string | null;
  tailscale: { mode: TailscaleMode; name: string } | null;
  /** Tailscale is up here but was not asked for: said, never used. */
  tailscaleHint: string | null;
  /** For createHub: names it answers and origins that may open sockets. */
  allowedHosts: string[];
  allowedOrigins: string[];
};

export type OpenReach = {
  /** The base URL the QR and the pairing link use; null when no phone can reach this hub. */
  phoneUrl: string | null;
  /** What to print about it (after the listen line, before the first-start block). */
  lines: string[];
  /** Undo what start set: the phone-url file, Tailscale's serve config. Returns warnings. */
  close(): Promise<string[]>;
};

/** How long a plain start waits for `tailscale status` (the hint only). */
const HINT_WAIT_MS = 3_000;

/** Reads Tailscale's state (only when asked for, or when its command exists, for the hint). Throws a
 *  one-line problem when --tailscale cannot work. */
export async function prepareReach(options: { publicUrl: string | null; tailscale: TailscaleMode | null; allowedHosts: string[]; run: Run; tailscaleInstalled: boolean }): Promise<PreparedReach> {
  let status: TailscaleStatus | null = null;
  if (options.tailscale) status = await readStatus(options.run);
  // Only for the hint: a tailscaled that does not answer must not hold up a plain start.
  else if (options.tailscaleInstalled) status = await Promise.race([readStatus(options.run), Bun.sleep(HINT_WAIT_MS).then(() => null)]);
  if (options.tailscale) {
    const problem = status ? statusProblem(status) : null;
    if (problem) throw new Error(problem);
  }
  const name = status?.kind === 'running' ? status.name : null;
  const tailscale = options.tailscale && name ? { mode: options.tailscale, name } : null;
  return {
    publicUrl: options.publicUrl,
    tailscale,
    tailscaleHint: !options.tailscale && name ? name : null,
    allowedHosts: [...options.allowedHosts, ...(tailscale ? [tailscale.name] : [])],
    allowedOrigins: tailscale ? [`https://${tailscale.name}`] : [],
  };
}

/** For a hub bound to every interface, the address a phone on the LAN can reach. */
function lanAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const addr of list ?? []) if (addr.family === 'IPv4' && !addr.internal) return addr.address;
  }
  return null;
}

/** Where a phone reaches a hub bound to `host` without https: the LAN address, or null. */
export function lanUrl(options: { host: string; port: number; lan?: () => string | null }): string | null {
  const { host, port } = options;
  if (isLoopbackHost(host)) return null;
  const address = host === '0.0.0.0' || host === '::' ? (options.lan ?? lanAddress)() : host;
  if (!address) return null;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

export async function openReach(options: {
  prepared: PreparedReach;
  home: string;
  hubUrl: string;
  host: string;
  port: number;
  run: Run;
  gate: (url: string) => Promise<GateResult>;
  lan?: () => string | null;
}): Promise<OpenReach> {
  const { prepared } = options;
  const lines: string[] = [];
  const undo: Array<() => Promise<string | null>> = [];
  const close = async () => {
    rmSync(join(options.home, PHONE_URL_FILE), { force: true });
    const warnings: string[] = [];
    for (const step of undo.splice(0).reverse()) {
      const warning = await step().catch((error: unknown) => `tailscale: ${error instanceof Error ? error.message : String(error)}`);
      if (warning) warnings.push(warning);
    }
    return warnings;
  };
  let tailscaleUrl: string | null = null;
  if (prepared.tailscale) {
    const { mode, name } = prepared.tailscale;
    const published = await publish({ run: options.run, home: options.home, name, port: options.port, mode });
    if (published.kind !== 'published') throw new Error(published.problem);
    undo.push(() => published.undo());
    tailscaleUrl = published.url;
    lines.push(
      mode === 'funnel'
        ? `tailscale funnel: ${published.url} → ${options.hubUrl} on the PUBLIC INTERNET: anyone can open the hub's login page (only a token gets in). --tailscale without =funnel keeps it inside your tailnet. Undone when the hub stops`
        : `tailscale serve: ${published.url} → ${options.hubUrl}, for the devices of your tailnet only. Undone when the hub stops`,
    );
  }
  // A loopback --public-url (http only there, flags.ts; or https) is for development: served, never
  // shown to a phone, which would reach itself.
  const devUrl = prepared.publicUrl && isLoopbackHost(new URL(prepared.publicUrl).hostname) ? prepared.publicUrl : null;
  if (devUrl) lines.push(`public URL ${devUrl}: development only (this machine's loopback), not shown to a phone`);
  const candidates = [devUrl ? null : prepared.publicUrl, tailscaleUrl].filter((u): u is string => u !== null);
  let phoneUrl: string | null = null;
  for (const url of candidates) {
    const result = await options.gate(url);
    lines.push(describeGate({ url, result, hubUrl: options.hubUrl }));
    if (result.kind === 'ok') {
      phoneUrl = url;
      break;
    }
  }
  if (prepared.tailscaleHint) {
    lines.push(`tailscale: up on this machine as ${prepared.tailscaleHint}; tether hub --tailscale would serve the hub at https://${prepared.tailscaleHint} to your tailnet (nothing is exposed without the flag)`);
  }
  if (phoneUrl) {
    writeFileSync(join(options.home, PHONE_URL_FILE), `${phoneUrl}\n`, { mode: 0o600 });
    lines.push(`phone: ${phoneUrl}`);
  } else {
    // A file left by an earlier hub that died must not send `tether pair` to an unchecked URL.
    rmSync(join(options.home, PHONE_URL_FILE), { force: true });
    lines.push(...noHttpsLines({ candidates, options, hint: prepared.tailscaleHint }));
    // The LAN's http only when no https URL was asked for: a failed one must be fixed, not bypassed.
    if (candidates.length === 0) phoneUrl = lanUrl(options);
  }
  return { phoneUrl, lines, close };
}

/** Says where a phone can reach the hub without a checked https URL, what that loses, and the one
 *  flag that fixes it. */
function noHttpsLines(o: { candidates: string[]; options: { host: string; port: number; lan?: () => string | null }; hint: string | null }): string[] {
  const fix = o.hint ? '--tailscale' : '--public-url https://NAME (an HTTPS proxy in front, docs/deploy.md)';
  if (o.candidates.length > 0) return [`phone: no QR (the https URL did not pass the check above); fix it and restart`];
  const lan = lanUrl(o.options);
  if (lan) {
    return [`phone: ${lan} on your network only, over plain http: no notifications, no install as an app, and anyone on the Wi-Fi sees the token and every chat. Fix: ${fix}`];
  }
  return [`phone: none: this hub answers on this machine only (${o.options.host}), so no phone reaches it. Fix: ${fix}`];
}
