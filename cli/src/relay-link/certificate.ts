// certificate.ts: the hub's own certificate for its relay name, from ACME over TLS-ALPN-01 through
// the relay (RFC 8737: the CA dials name:443 with ALPN acme-tls/1; the relay passes it like any
// connection; front.ts answers with the challenge certificate). Kept in TETHER_HOME/relay/ (key
// 0600) and renewed in the background 30 days before it expires, swapped in without a restart.
//
//   have a certificate with > 30 days left? ─► use it
//   else ─► account key (kept) ─► order ─► challenge cert in the front ─► CA validates ─► CSR ─► PEM
//
// Every answer of the CA is read through acme-http.ts: at most ACME_ANSWER_MAX_BYTES + slack.
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acme from 'acme-client';
import { useCappedAcmeTransport } from './acme-http.ts';
import type { Pem } from './front.ts';

export const LETS_ENCRYPT = 'https://acme-v02.api.letsencrypt.org/directory';
const RENEW_BEFORE_MS = 30 * 24 * 3600_000;
/** A failed renewal is tried again after this (the old certificate still has weeks). */
const RETRY_MS = 3600_000;

export type Issued = Pem & { notAfter: Date; fingerprint: string };

function fingerprintOf(cert: string): string {
  return new X509Certificate(cert).fingerprint256;
}

function notAfterOf(cert: string): Date {
  return acme.crypto.readCertificateInfo(cert).notAfter;
}

function stored(dir: string, name: string): Issued | null {
  const keyPath = join(dir, `${name}.key`);
  const certPath = join(dir, `${name}.crt`);
  if (!existsSync(keyPath) || !existsSync(certPath)) return null;
  const cert = readFileSync(certPath, 'utf8');
  try {
    return { key: readFileSync(keyPath, 'utf8'), cert, notAfter: notAfterOf(cert), fingerprint: fingerprintOf(cert) };
  } catch {
    return null;
  }
}

async function accountKey(dir: string): Promise<string> {
  const path = join(dir, 'acme-account.key');
  if (existsSync(path)) return readFileSync(path, 'utf8');
  const key = (await acme.crypto.createPrivateEcdsaKey()).toString();
  writeFileSync(path, key, { mode: 0o600 });
  return key;
}

export type CertificateOptions = {
  name: string;
  /** TETHER_HOME/relay. */
  dir: string;
  directoryUrl: string;
  /** The front's challenge slot. */
  challenge: (pem: Pem | null) => void;
};

/** Orders a certificate for `name` now (no cache). */
export async function order(options: CertificateOptions): Promise<Issued> {
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  useCappedAcmeTransport();
  const client = new acme.Client({ directoryUrl: options.directoryUrl, accountKey: await accountKey(options.dir) });
  const [key, csr] = await acme.crypto.createCsr({ altNames: [options.name] }, await acme.crypto.createPrivateEcdsaKey());
  const cert = await client.auto({
    csr,
    termsOfServiceAgreed: true,
    challengePriority: ['tls-alpn-01'],
    // acme-client's own check dials name:443 from here; the CA's validation is the one that counts.
    skipChallengeVerification: true,
    challengeCreateFn: async (authz, _challenge, keyAuthorization) => {
      const [challengeKey, challengeCert] = await acme.crypto.createAlpnCertificate(authz, keyAuthorization);
      options.challenge({ key: challengeKey.toString(), cert: challengeCert.toString() });
    },
    challengeRemoveFn: async () => options.challenge(null),
  });
  writeFileSync(join(options.dir, `${options.name}.key`), key.toString(), { mode: 0o600 });
  writeFileSync(join(options.dir, `${options.name}.crt`), cert, { mode: 0o644 });
  return { key: key.toString(), cert, notAfter: notAfterOf(cert), fingerprint: fingerprintOf(cert) };
}

/** The stored certificate if it has more than 30 days left, else a new one. */
export async function ensureCertificate(options: CertificateOptions): Promise<Issued> {
  const have = stored(options.dir, options.name);
  if (have && have.notAfter.getTime() - Date.now() > RENEW_BEFORE_MS) return have;
  return order(options);
}

/** Renews in the background before expiry; `use` gets each new certificate. Returns a stop. */
export function keepRenewed(options: CertificateOptions & { current: Issued; use: (issued: Issued) => void; log: (line: string) => void }): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const schedule = (notAfter: Date) => {
    const wait = Math.max(notAfter.getTime() - RENEW_BEFORE_MS - Date.now(), 0);
    // setTimeout holds at most ~24.8 days; longer waits are taken in steps.
    timer = setTimeout(() => (Date.now() >= notAfter.getTime() - RENEW_BEFORE_MS ? void renew(notAfter) : schedule(notAfter)), Math.min(wait, 2 ** 31 - 1));
  };
  const renew = async (notAfter: Date) => {
    try {
      const issued = await order(options);
      if (stopped) return;
      options.use(issued);
      options.log(`relay: certificate renewed for ${options.name}, valid until ${issued.notAfter.toISOString()} (sha256 ${issued.fingerprint})`);
      schedule(issued.notAfter);
    } catch (error) {
      options.log(`relay: certificate renewal failed (${error instanceof Error ? error.message : String(error)}); the current one is valid until ${notAfter.toISOString()}; trying again in an hour`);
      if (!stopped) timer = setTimeout(() => void renew(notAfter), RETRY_MS);
    }
  };
  schedule(options.current.notAfter);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
