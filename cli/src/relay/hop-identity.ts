// hop-identity.ts: self-signed ECDSA P-256 certificates for the hop between the relay's nginx and a
// hub's front (the TLS layer that carries the PROXY line's proof, docs/decisions/relay.md). Nobody
// trusts them through a CA: the relay's is pinned by its SHA-256 in each join code, the front's is
// not checked at all (nginx cannot pin per hub); so a name and a long validity are all they need.
// @peculiar/x509 writes them (acme-client already ships it for its CSRs; node:crypto has no writer).
import { webcrypto, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export type HopIdentity = { key: string; cert: string; fingerprint: string };

/** SHA-256 of a PEM certificate, as the join code carries it ("AB:CD:…"). */
export function fingerprintOf(cert: string): string {
  return new X509Certificate(cert).fingerprint256;
}

/** A fresh key and a certificate for it, valid from a day ago (clocks differ) for `years`. */
export async function makeHopIdentity(options: { commonName: string; years: number }): Promise<HopIdentity> {
  const keys = (await webcrypto.subtle.generateKey(ECDSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(12))).toString('hex').replace(/^[89a-f]/, '1'),
    name: `CN=${options.commonName}`,
    notBefore: new Date(now - 24 * 3600_000),
    notAfter: new Date(now + options.years * 365 * 24 * 3600_000),
    signingAlgorithm: ECDSA,
    keys,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const key = `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
  const cert = certificate.toString('pem');
  return { key, cert: cert.endsWith('\n') ? cert : `${cert}\n`, fingerprint: fingerprintOf(cert) };
}
