// tls-gate.test.ts: the TLS gate against a real hub behind a real HTTPS proxy on 127.0.0.1 with a
// certificate from a throwaway CA (tests/harness/test-ca.ts): trusted → ok; no CA, a name the
// certificate does not cover → untrusted with the reason; nothing listening → refused; another
// server, another hub → not this hub. (A name that does not resolve: tests/e2e/hub-reach.test.ts, in
// a network namespace: no DNS query leaves this machine.) Bounded: each case has a budget.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHub, REACH_PROOF_PATH, type Hub } from '@tether/hub';
import { useCleanups } from '../../../tests/harness/cleanups.ts';
import { makeTestCa, startTlsProxy, type TestCa } from '../../../tests/harness/test-ca.ts';
import { startOversizeServer } from '../../../tests/fixtures/oversize-answer.ts';
import { classifyFetchError, describeGate, REACH_ANSWER_MAX_BYTES, tlsGate, type GateOptions } from './tls-gate.ts';

const defer = useCleanups();
let home: string;
let hub: Hub;
let ca: TestCa;
let proxyPort: number;
/** What beforeAll made, released in afterAll. */
const lasting: Array<() => unknown> = [];

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'tether-gate-'));
  hub = await createHub({ config: { port: 0, home } });
  ca = makeTestCa((c) => lasting.push(c));
  const leaf = ca.issue(['localhost', '127.0.0.1']);
  proxyPort = startTlsProxy((c) => lasting.push(c), { cert: leaf.cert, key: leaf.key, upstream: hub.url }).port;
});
afterAll(async () => {
  for (const cleanup of lasting.reverse()) await cleanup();
  await hub.stop();
  rmSync(home, { recursive: true, force: true });
});

const gate = (url: string, extra: Partial<GateOptions> = {}) =>
  tlsGate({ url, path: REACH_PROOF_PATH, answer: (c) => hub.reachAnswer(c), budgetMs: 1_500, retryMs: 200, attemptMs: 1_000, ...extra });

describe('tlsGate', () => {
  it('ok: a trusted certificate and this hub\'s own answer', async () => {
    expect(await gate(`https://localhost:${proxyPort}`, { ca: ca.caPem })).toEqual({ kind: 'ok' });
  });

  it('untrusted: a CA the fetch does not know, said with the reason', async () => {
    const started = Date.now();
    const result = await gate(`https://localhost:${proxyPort}`, { budgetMs: 10_000 });
    expect(result.kind).toBe('untrusted');
    expect(Date.now() - started).toBeLessThan(3_000); // final: no retry
    if (result.kind !== 'untrusted') return;
    expect(result.reason).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|certificate/i);
    const line = describeGate({ url: `https://localhost:${proxyPort}`, result, hubUrl: hub.url });
    expect(line).toContain('certificate not trusted');
    expect(line).toContain('public CA');
  });

  it('untrusted: a certificate for another name', async () => {
    const other = ca.issue(['other.example']);
    const { port } = startTlsProxy(defer, { cert: other.cert, key: other.key, upstream: hub.url });
    const result = await gate(`https://localhost:${port}`, { ca: ca.caPem });
    expect(result.kind).toBe('untrusted');
  });

  it('refused: nothing listens (retried until the budget, then said)', async () => {
    const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
    const port = probe.port!;
    probe.stop(true);
    const started = Date.now();
    const result = await gate(`https://127.0.0.1:${port}`, { ca: ca.caPem });
    expect(result.kind).toBe('refused');
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(describeGate({ url: `https://127.0.0.1:${port}`, result, hubUrl: hub.url })).toContain('connection refused');
  });

  it('not this hub: another server behind a good certificate, or another hub', async () => {
    const leaf = ca.issue(['localhost']);
    const stranger = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ proof: 'x' }) });
    defer(() => stranger.stop(true));
    const { port } = startTlsProxy(defer, { cert: leaf.cert, key: leaf.key, upstream: `http://127.0.0.1:${stranger.port}` });
    const result = await gate(`https://localhost:${port}`, { ca: ca.caPem });
    expect(result.kind).toBe('not-this-hub');
    const otherHome = mkdtempSync(join(tmpdir(), 'tether-gate-other-'));
    defer(() => rmSync(otherHome, { recursive: true, force: true }));
    const otherHub = await createHub({ config: { port: 0, home: otherHome } });
    defer(() => otherHub.stop());
    const viaOther = startTlsProxy(defer, { cert: leaf.cert, key: leaf.key, upstream: otherHub.url });
    expect((await gate(`https://localhost:${viaOther.port}`, { ca: ca.caPem })).kind).toBe('not-this-hub');
  });
});

describe('tlsGate against a server that answers 50 MB', () => {
  it('not this hub, read only to the cap and said at once; the gate passes for the real hub after', async () => {
    const leaf = ca.issue(['localhost']);
    const answerBytes = 50 * 1024 * 1024;
    const flood = startOversizeServer({ status: 200, bytes: answerBytes, head: '{"proof":"', tail: '"}', tls: { cert: leaf.cert, key: leaf.key } });
    defer(() => flood.stop());
    expect(REACH_ANSWER_MAX_BYTES).toBe(4 * 1024);
    const url = `https://localhost:${new URL(flood.url).port}`;
    const result = await gate(url, { ca: ca.caPem, budgetMs: 10_000 });
    expect(result).toEqual({ kind: 'not-this-hub', reason: 'it answered HTTP 200 with an answer over 4 KiB' });
    expect(flood.tally.requests).toBe(1); // final: no retry
    await vi.waitFor(() => expect(flood.tally.brokenOff).toBe(1));
    expect(flood.tally.sentBytes).toBeLessThan(answerBytes);
    expect(describeGate({ url, result, hubUrl: hub.url })).toContain('not by this hub (it answered HTTP 200 with an answer over 4 KiB)');
    expect(await gate(`https://localhost:${proxyPort}`, { ca: ca.caPem })).toEqual({ kind: 'ok' });
  });
});

describe('classifyFetchError', () => {
  it.each([
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self signed certificate' }, 'untrusted'],
    [{ code: 'CERT_HAS_EXPIRED', message: 'certificate has expired' }, 'untrusted'],
    [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: 'Hostname/IP does not match' }, 'untrusted'],
    [{ code: 'EAI_AGAIN', message: 'getaddrinfo EAI_AGAIN x' }, 'unresolved'],
    [{ code: 'ECONNREFUSED', message: 'ECONNREFUSED: Unable to connect' }, 'refused'],
    [{ name: 'TimeoutError', message: 'The operation timed out.' }, 'unreachable'],
    [{ code: 'ECONNRESET', message: 'socket hang up' }, 'unreachable'],
  ])('%j → %s', (error, kind) => expect(classifyFetchError(error).kind).toBe(kind));
});
