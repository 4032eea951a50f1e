// acme-http.test.ts: acme-client over the capped transport, against a small scripted CA on 127.0.0.1
// (directory, nonce, account: RFC 8555 §7.1–7.3): a normal exchange reaches acme-client as axios's
// own transport gave it (JSON, Location, Replay-Nonce, an error document), and a 50 MB answer, to
// the first request of `order()` or to a signed POST, fails at once with a clear error, not retried.
// The full issuance against pebble is tests/browser/relay.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acme from 'acme-client';
import { describe, expect, it, vi } from 'vitest';
import { oversizeBody, startOversizeServer, type OversizeTally } from '../../../tests/fixtures/oversize-answer.ts';
import { useCleanups } from '../../../tests/harness/cleanups.ts';
import { ACME_ANSWER_MAX_BYTES, cappedAcmeTransport, useCappedAcmeTransport } from './acme-http.ts';
import { order } from './certificate.ts';

const defer = useCleanups();
const ANSWER_BYTES = 50 * 1024 * 1024;

type Seen = { method: string; path: string; contentType: string | null; body: string };

/** A CA that knows a directory, a nonce and accounts; `account` says how it answers newAccount. */
function startCa(account: 'created' | 'refused' | 'flood') {
  const seen: Seen[] = [];
  const tally: OversizeTally = { sentBytes: 0, brokenOff: 0, requests: 0 };
  let nonce = 0;
  let base = '';
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req): Promise<Response> {
      const path = new URL(req.url).pathname;
      seen.push({ method: req.method, path, contentType: req.headers.get('content-type'), body: await req.text() });
      const headers = { 'replay-nonce': `nonce-${++nonce}`, 'content-type': 'application/json' };
      if (path === '/dir') return Response.json({ newNonce: `${base}/nonce`, newAccount: `${base}/account`, newOrder: `${base}/order`, meta: { termsOfService: `${base}/terms` } });
      if (path === '/nonce') return new Response(null, { status: 200, headers });
      if (path !== '/account') return new Response('no such resource', { status: 404 });
      if (account === 'refused') return Response.json({ type: 'urn:ietf:params:acme:error:malformed', detail: 'accounts are closed here' }, { status: 400, headers });
      if (account === 'flood') return new Response(oversizeBody({ bytes: ANSWER_BYTES, head: '{"status":"', tally }), { status: 201, headers });
      return Response.json({ status: 'valid', contact: [] }, { status: 201, headers: { ...headers, location: `${base}/acct/7` } });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  defer(() => server.stop(true));
  return { directoryUrl: `http://127.0.0.1:${server.port}/dir`, host: `127.0.0.1:${server.port}`, seen, tally };
}

const accountKey = async () => (await acme.crypto.createPrivateEcdsaKey()).toString();

describe('acme-client over the capped transport', () => {
  it('carries a normal exchange: the directory as JSON, a nonce header, a signed POST, Location and status', async () => {
    useCappedAcmeTransport();
    expect(acme.axios.defaults.adapter).toBe(cappedAcmeTransport);
    const ca = startCa('created');
    const client = new acme.Client({ directoryUrl: ca.directoryUrl, accountKey: await accountKey() });
    expect(await client.getTermsOfServiceUrl()).toBe(`http://${ca.host}/terms`);
    expect(await client.createAccount({ termsOfServiceAgreed: true })).toMatchObject({ status: 'valid' });
    expect(client.getAccountUrl()).toBe(`http://${ca.host}/acct/7`);
    expect(ca.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /dir', 'HEAD /nonce', 'POST /account']);
    const post = ca.seen[2]!;
    expect(post.contentType).toBe('application/jose+json');
    expect(JSON.parse(post.body)).toEqual({ protected: expect.any(String), payload: expect.any(String), signature: expect.any(String) });
  });

  it("hands the CA's error document back to acme-client, which says its detail", async () => {
    useCappedAcmeTransport();
    const ca = startCa('refused');
    const client = new acme.Client({ directoryUrl: ca.directoryUrl, accountKey: await accountKey() });
    await expect(client.createAccount({ termsOfServiceAgreed: true })).rejects.toThrow('accounts are closed here');
  });

  it('stops a 50 MB answer to a signed POST at the cap: a clear error, at once, not retried', async () => {
    useCappedAcmeTransport();
    const ca = startCa('flood');
    const client = new acme.Client({ directoryUrl: ca.directoryUrl, accountKey: await accountKey() });
    expect(ACME_ANSWER_MAX_BYTES).toBe(64 * 1024);
    await expect(client.createAccount({ termsOfServiceAgreed: true })).rejects.toThrow(`the ACME server at ${ca.host} sent an answer over 64 KiB`);
    expect(ca.seen.filter((s) => s.path === '/account')).toHaveLength(1);
    await vi.waitFor(() => expect(ca.tally.brokenOff).toBe(1));
    expect(ca.tally.sentBytes).toBeLessThan(ANSWER_BYTES);
  });

  it("order(): a 50 MB directory fails the order with the cap named, and the CA's next answer is read normally", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-acme-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    const flood = startOversizeServer({ status: 200, bytes: ANSWER_BYTES, head: '{"newNonce":"' });
    defer(() => flood.stop());
    const challenge = vi.fn();
    const host = new URL(flood.url).host;
    await expect(order({ name: 'alpha.relay.test', dir, directoryUrl: `${flood.url}/directory`, challenge })).rejects.toThrow(`the ACME server at ${host} sent an answer over 64 KiB`);
    expect(flood.tally.requests).toBe(1);
    await vi.waitFor(() => expect(flood.tally.brokenOff).toBe(1));
    expect(flood.tally.sentBytes).toBeLessThan(ANSWER_BYTES);
    expect(challenge).not.toHaveBeenCalled();
    // The same process goes on talking to a CA that behaves.
    const ca = startCa('created');
    const client = new acme.Client({ directoryUrl: ca.directoryUrl, accountKey: await accountKey() });
    expect(await client.getTermsOfServiceUrl()).toBe(`http://${ca.host}/terms`);
  });
});
