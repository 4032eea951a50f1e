// test-ca.ts (harness): a throwaway certificate authority (openssl, P-256, valid two days) and an
// HTTPS reverse proxy on 127.0.0.1 presenting one of its certificates in front of a hub: what a
// Caddy or a `tailscale serve` does, for the TLS gate's tests.
//
//   fetch https://<name>:<port> ─► Bun.serve({ tls }) ─► hub (Host passed through, like Caddy)
//
// Invariant: everything lives in a temp dir the caller removes (defer); nothing is trusted
// system-wide: a test trusts the CA explicitly (tls.ca) or via NODE_EXTRA_CA_CERTS in a child.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type TestCa = { dir: string; caPem: string; caPath: string; issue(names: string[]): { cert: string; key: string; certPath: string; keyPath: string } };

function openssl(args: string[], cwd: string): void {
  const proc = Bun.spawnSync(['openssl', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (proc.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${proc.stderr.toString()}`);
}

export function makeTestCa(defer: (cleanup: () => unknown) => void, commonName = 'tether test CA'): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'tether-ca-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', `/CN=${commonName}`], dir);
  let serial = 0;
  return {
    dir,
    caPath: join(dir, 'ca.pem'),
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    issue(names) {
      const id = `leaf${++serial}`;
      const san = names.map((n) => (/^[\d.]+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
      writeFileSync(join(dir, `${id}.cnf`), `subjectAltName=${san}\n`);
      openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${id}.key`, '-out', `${id}.csr`, '-subj', `/CN=${names[0]}`], dir);
      openssl(['x509', '-req', '-in', `${id}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', String(1000 + serial), '-out', `${id}.pem`, '-days', '2', '-extfile', `${id}.cnf`], dir);
      return { cert: readFileSync(join(dir, `${id}.pem`), 'utf8'), key: readFileSync(join(dir, `${id}.key`), 'utf8'), certPath: join(dir, `${id}.pem`), keyPath: join(dir, `${id}.key`) };
    },
  };
}

/** An HTTPS proxy on 127.0.0.1 (port 0 unless given) in front of `upstream`, Host passed through. */
export function startTlsProxy(defer: (cleanup: () => unknown) => void, options: { cert: string; key: string; upstream: string; port?: number }): { port: number } {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: options.port ?? 0,
    tls: { cert: options.cert, key: options.key },
    async fetch(req) {
      const url = new URL(req.url);
      const target = `${options.upstream}${url.pathname}${url.search}`;
      const res = await fetch(target, { method: req.method, headers: req.headers, redirect: 'manual', ...(req.body ? { body: req.body } : {}) });
      return new Response(res.body, { status: res.status, headers: res.headers });
    },
  });
  defer(() => server.stop(true));
  return { port: server.port! };
}
