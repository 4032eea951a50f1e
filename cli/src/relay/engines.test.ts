// engines.test.ts: the configuration tether relay writes is accepted by the real engines (`nginx -t`,
// `sshd -t`), ties each key to its own port, routes names only to their hubs, caps each hub, and
// wraps the forwarded bytes in the relay's hop TLS.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { authorizedKeys, checkCapPorts, hubsMap, hubsServers, nginxConfig } from './engines.ts';
import { makeHopIdentity } from './hop-identity.ts';
import { makeSshdRuntimeDir, NGINX_BIN, SSHD_BIN, writeEngineFiles } from './relay.ts';
import { statePaths, type RelaySettings } from './state.ts';

const dir = mkdtempSync(join(tmpdir(), 'tether-engines-'));
const SETTINGS: RelaySettings = {
  domain: 'relay.test',
  listen: '127.0.0.1:8443',
  publicPort: 443,
  sshListen: '127.0.0.1:2222',
  sshAddress: 'relay.test:2222',
  user: 'root',
  maxConnectionsPerHub: 256,
  maxConnectionsPerClient: 64,
  bytesPerSecond: 0,
  idleSeconds: 3600,
  tunnelDeadSeconds: 30,
  firstHubPort: 20000,
  firstCapPort: 10000,
  hubs: [
    { name: 'alpha', port: 20000, publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHUXgab3GpSGUV/yvBN0blP1zl7mhFkU8AEdto6Ag5/d', createdAt: 1 },
    { name: 'beta', port: 20001, publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINVSZ9ePIkq73ZDV5HWTOtS3127NDJlbAQldrlYTim8l', createdAt: 2 },
  ],
};

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('relay engine configuration', () => {
  it('ties each key to its own loopback port and each name to that port', () => {
    expect(authorizedKeys(SETTINGS).split('\n').filter(Boolean)).toEqual([
      `restrict,port-forwarding,permitlisten="127.0.0.1:20000" ${SETTINGS.hubs[0]!.publicKey} tether-relay:alpha`,
      `restrict,port-forwarding,permitlisten="127.0.0.1:20001" ${SETTINGS.hubs[1]!.publicKey} tether-relay:beta`,
    ]);
    expect(hubsMap(SETTINGS)).toBe('alpha.relay.test 127.0.0.1:10000;\nbeta.relay.test 127.0.0.1:10001;\n');
  });

  it('refuses cap ports that fall on a hub\'s tunnel port', () => {
    expect(() => checkCapPorts({ ...SETTINGS, firstCapPort: 19999 })).toThrow(/first-cap-port/);
    expect(() => checkCapPorts(SETTINGS)).not.toThrow();
  });

  it("caps each hub's connections in its own second hop, which passes the PROXY line on unread", () => {
    const servers = hubsServers(SETTINGS, dir).split('server {').slice(1);
    expect(servers).toHaveLength(2);
    expect(servers[1]).toContain('listen 127.0.0.1:10001;\n');
    expect(servers[1]).toContain('limit_conn per_hub 256;');
    expect(servers[1]).toContain('proxy_pass 127.0.0.1:20001;');
    expect(servers[1]).toContain('proxy_buffer_size 64k;');
    // Neither reading the PROXY line (listen … proxy_protocol) nor writing a second one.
    expect(servers[1]).not.toContain('proxy_protocol');
  });

  it('wraps what the first hop forwards in TLS with the relay\'s hop certificate, after the PROXY line', () => {
    const first = nginxConfig(SETTINGS, dir);
    const paths = statePaths(dir);
    for (const line of ['proxy_protocol on;', 'proxy_ssl on;', `proxy_ssl_certificate ${paths.hopCert};`, `proxy_ssl_certificate_key ${paths.hopKey};`, 'proxy_ssl_protocols TLSv1.3;']) expect(first).toContain(line);
  });

  it('is accepted by nginx -t and sshd -t', async () => {
    writeEngineFiles(dir, SETTINGS);
    const paths = statePaths(dir);
    const hop = await makeHopIdentity({ commonName: 'tether relay hop', years: 1 });
    writeFileSync(paths.hopKey, hop.key, { mode: 0o600 });
    writeFileSync(paths.hopCert, hop.cert);
    const nginx = spawnSync(NGINX_BIN, ['-t', '-e', 'stderr', '-c', paths.nginxConfig], { encoding: 'utf8' });
    expect(nginx.stderr).toContain('test is successful');
    expect(readFileSync(paths.nginxConfig, 'utf8')).toContain('limit_conn per_client 64;');
    expect(spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', paths.hostKey]).status).toBe(0);
    makeSshdRuntimeDir();
    const sshd = spawnSync(SSHD_BIN, ['-t', '-f', paths.sshdConfig], { encoding: 'utf8' });
    expect({ status: sshd.status, stderr: sshd.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
