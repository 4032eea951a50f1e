// tunnel.test.ts: what the hub says when ssh ends, from ssh's own words, and the ssh command line
// (pinned host key, forward failure is fatal, keepalives).
import { describe, expect, it } from 'vitest';
import { sshArgs, sshReason } from './tunnel.ts';

const HOP = Array.from({ length: 32 }, () => 'AB').join(':');

describe('tunnel', () => {
  it('turns ssh output into a reason a user can act on', () => {
    expect(sshReason('debug1: x\nWarning: remote port forwarding failed for listen port 20001\n')).toMatch(/refused the forward: this key may not serve that name/);
    expect(sshReason('root@relay: Permission denied (publickey).')).toMatch(/refused the key/);
    expect(sshReason('Host key verification failed.')).toMatch(/host key is not the one in the join code/);
    expect(sshReason('ssh: connect to host relay port 2222: Connection refused')).toMatch(/connection refused/);
    expect(sshReason('Timeout, server relay not responding.')).toMatch(/lost|unreachable/);
    expect(sshReason('something new')).toBe('ssh: something new');
  });

  it('pins the host key and fails on a refused forward', () => {
    const args = sshArgs({ join: { name: 'a.relay.test', origin: 'https://a.relay.test', ssh: 'relay.test:2222', user: 'tether', hostKey: 'ssh-ed25519 AAAA', port: 20000, hop: HOP, key: '' }, keyPath: '/k', knownHosts: '/kh', frontPort: 4000 });
    expect(args.join(' ')).toContain('-o StrictHostKeyChecking=yes -o HostKeyAlias=tether-relay');
    expect(args.join(' ')).toContain('-o ExitOnForwardFailure=yes');
    expect(args.slice(-6)).toEqual(['-l', 'tether', '-R', '127.0.0.1:20000:127.0.0.1:4000', '--', 'relay.test']);
  });
});
