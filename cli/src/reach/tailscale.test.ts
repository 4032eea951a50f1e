// tailscale.test.ts: reading Tailscale's documented JSON (the stand-in's recorded shapes in
// tests/fixtures/tailscale/) and what publish() runs: set only when 443 is free (or tether's own
// leftover), undo only what it set, and each refusal with its fix.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../../../tests/harness/cleanups.ts';
import { parseStatus, port443, publish, readStatus, statusProblem, type Run } from './tailscale.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../tests/fixtures/tailscale');
const NAME = 'box.tail1234.ts.net';
const fixture = (file: string) => readFileSync(join(FIXTURES, file), 'utf8').replaceAll('@NAME@', NAME);
const defer = useCleanups();

describe('parseStatus', () => {
  it('Running with HTTPS: the name without its trailing dot, and the tailnet', () => {
    expect(parseStatus(fixture('status-running.json'))).toEqual({ kind: 'running', name: NAME, tailnet: 'tail1234.ts.net' });
  });
  it('CertDomains empty: HTTPS is off', () => {
    expect(parseStatus(fixture('status-https-off.json'))).toEqual({ kind: 'https-off', name: NAME });
  });
  it('NeedsLogin and Stopped', () => {
    expect(parseStatus(fixture('status-needs-login.json'))).toEqual({ kind: 'logged-out', state: 'NeedsLogin' });
    expect(parseStatus(fixture('status-stopped.json'))).toEqual({ kind: 'stopped' });
  });
  it('each problem names its fix', () => {
    expect(statusProblem({ kind: 'missing' })).toContain('https://tailscale.com/download');
    expect(statusProblem({ kind: 'logged-out', state: 'NeedsLogin' })).toContain('tailscale up');
    expect(statusProblem({ kind: 'stopped' })).toContain('tailscale up');
    expect(statusProblem({ kind: 'https-off', name: NAME })).toContain('https://login.tailscale.com/admin/dns');
    expect(statusProblem({ kind: 'running', name: NAME, tailnet: 't' })).toBeNull();
  });
  it('readStatus: a missing command, a daemon that does not answer', async () => {
    expect(await readStatus(async () => ({ code: 127, stdout: '', stderr: '' }))).toEqual({ kind: 'missing' });
    const down = await readStatus(async () => ({ code: 1, stdout: '', stderr: "failed to connect to local tailscaled; it doesn't appear to be running\n" }));
    expect(down).toMatchObject({ kind: 'daemon-down', reason: expect.stringContaining('tailscaled') });
  });
});

describe('port443', () => {
  it('free when there is no config ("null", "{}", nothing)', () => {
    for (const text of ['null\n', '{}', '']) expect(port443(text)).toEqual({ taken: false });
  });
  it('taken, with the proxy it points at', () => {
    const config = { TCP: { '443': { HTTPS: true } }, Web: { [`${NAME}:443`]: { Handlers: { '/': { Proxy: 'http://127.0.0.1:3000' } } } } };
    expect(port443(JSON.stringify(config))).toEqual({ taken: true, proxy: 'http://127.0.0.1:3000' });
  });
  it('other ports do not count; several handlers or garbage count as someone else\'s', () => {
    expect(port443(JSON.stringify({ TCP: { '8443': { HTTPS: true } }, Web: { [`${NAME}:8443`]: { Handlers: { '/': { Proxy: 'http://127.0.0.1:1' } } } } }))).toEqual({ taken: false });
    const two = { TCP: { '443': { HTTPS: true } }, Web: { [`${NAME}:443`]: { Handlers: { '/': { Proxy: 'http://127.0.0.1:1' }, '/x': { Proxy: 'http://127.0.0.1:2' } } } } };
    expect(port443(JSON.stringify(two))).toEqual({ taken: true, proxy: null });
    expect(port443('not json')).toEqual({ taken: true, proxy: null });
  });
});

/** A run() over an in-memory serve config, recording every call. */
function fakeTailscale(options: { serve?: object | null; deny?: boolean } = {}) {
  let serve: object | null = options.serve ?? null;
  const calls: string[] = [];
  const run: Run = async (args) => {
    calls.push(args.join(' '));
    if (args.join(' ') === 'serve status --json') return { code: 0, stdout: JSON.stringify(serve), stderr: '' };
    if (options.deny) return { code: 1, stdout: '', stderr: "Access denied: serve config denied\nUse 'sudo tailscale serve --bg --https=443 …'.\n" };
    if (args.at(-1) === 'off') {
      serve = null;
      return { code: 0, stdout: '', stderr: '' };
    }
    serve = { TCP: { '443': { HTTPS: true } }, Web: { [`${NAME}:443`]: { Handlers: { '/': { Proxy: args.at(-1) } } } } };
    return { code: 0, stdout: '', stderr: '' };
  };
  return { run, calls, serve: () => serve };
}

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-ts-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('publish', () => {
  it('sets serve on a free 443 and undoes exactly that', async () => {
    const ts = fakeTailscale();
    const dir = home();
    const published = await publish({ run: ts.run, home: dir, name: NAME, port: 8787, mode: 'serve' });
    expect(published.kind).toBe('published');
    if (published.kind !== 'published') return;
    expect(published.url).toBe(`https://${NAME}`);
    expect(ts.calls).toEqual(['serve status --json', 'serve --bg --https=443 http://127.0.0.1:8787']);
    expect(await published.undo()).toBeNull();
    expect(ts.calls.slice(2)).toEqual(['serve status --json', 'serve --https=443 off']);
    expect(ts.serve()).toBeNull();
  });

  it('funnel: set and undone with funnel', async () => {
    const ts = fakeTailscale();
    const published = await publish({ run: ts.run, home: home(), name: NAME, port: 9000, mode: 'funnel' });
    if (published.kind !== 'published') throw new Error(published.kind);
    await published.undo();
    expect(ts.calls).toEqual(['serve status --json', 'funnel --bg --https=443 http://127.0.0.1:9000', 'serve status --json', 'funnel --https=443 off']);
  });

  it('never replaces the user\'s own 443', async () => {
    const own = { TCP: { '443': { HTTPS: true } }, Web: { [`${NAME}:443`]: { Handlers: { '/': { Proxy: 'http://127.0.0.1:3000' } } } } };
    const ts = fakeTailscale({ serve: own });
    const published = await publish({ run: ts.run, home: home(), name: NAME, port: 8787, mode: 'serve' });
    expect(published).toMatchObject({ kind: 'taken', problem: expect.stringContaining('proxy to http://127.0.0.1:3000') });
    expect(ts.calls).toEqual(['serve status --json']);
    expect(ts.serve()).toEqual(own);
  });

  it('takes back its own leftover (a hub that was killed), recorded in TETHER_HOME', async () => {
    const dir = home();
    writeFileSync(join(dir, 'tailscale-serve.json'), JSON.stringify({ target: 'http://127.0.0.1:8787', mode: 'serve' }));
    const ts = fakeTailscale({ serve: { TCP: { '443': { HTTPS: true } }, Web: { [`${NAME}:443`]: { Handlers: { '/': { Proxy: 'http://127.0.0.1:8787' } } } } } });
    const published = await publish({ run: ts.run, home: dir, name: NAME, port: 8787, mode: 'serve' });
    expect(published.kind).toBe('published');
  });

  it('leaves 443 alone on stop when the user changed it meanwhile', async () => {
    const ts = fakeTailscale();
    const published = await publish({ run: ts.run, home: home(), name: NAME, port: 8787, mode: 'serve' });
    if (published.kind !== 'published') throw new Error(published.kind);
    await ts.run(['serve', '--bg', '--https=443', 'http://127.0.0.1:3000']); // the user's own, later
    expect(await published.undo()).toContain('left as it is');
    expect(ts.calls.filter((c) => c.endsWith('off'))).toEqual([]);
  });

  it('a permission refusal names sudo tailscale set --operator=$USER', async () => {
    const ts = fakeTailscale({ deny: true });
    const published = await publish({ run: ts.run, home: home(), name: NAME, port: 8787, mode: 'serve' });
    expect(published).toMatchObject({ kind: 'refused', problem: expect.stringContaining('sudo tailscale set --operator=$USER') });
  });
});
