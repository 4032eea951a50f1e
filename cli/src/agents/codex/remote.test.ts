import { describe, expect, it } from 'vitest';
import { joinArgs, joinSupport, listeningUrl, notYetJoinable, remoteListener } from './remote.ts';

describe('Codex joined at the desk', () => {
  it('listens on 127.0.0.1 with a fresh token whose SHA-256 alone is on the command line', () => {
    const a = remoteListener();
    const b = remoteListener();
    expect(a.token).not.toBe(b.token);
    expect(a.token.length).toBeGreaterThanOrEqual(40);
    const sha = new Bun.CryptoHasher('sha256').update(a.token).digest('hex');
    expect(a.args).toEqual(['--listen', 'ws://127.0.0.1:0', '--ws-auth', 'capability-token', '--ws-token-sha256', sha]);
    expect(a.args.join(' ')).not.toContain(a.token);
  });

  it('reads the port from the app server\'s stderr, a loopback address only', () => {
    const banner = 'codex app-server (WebSockets)\n  listening on: ws://127.0.0.1:36353\n  readyz: http://127.0.0.1:36353/readyz\n';
    expect(listeningUrl(banner)).toBe('ws://127.0.0.1:36353');
    expect(listeningUrl('  listening on: ws://0.0.0.0:36353\n')).toBeNull();
    expect(listeningUrl('  listening on: ws://127.0.0.1:')).toBeNull();
  });

  it('joins from 0.160.0; before its first turn is written, from 0.171.0; the token goes by the variable\'s name', () => {
    expect(joinSupport('0.159.9')).toMatchObject({ supported: false, reason: expect.stringContaining('predates') });
    expect(joinSupport(null)).toMatchObject({ supported: false });
    expect(joinSupport('0.160.0')).toEqual({ supported: true, version: '0.160.0' });
    expect(notYetJoinable({ version: '0.160.0', transcriptWritten: false })).toContain('send the session a prompt first');
    expect(notYetJoinable({ version: '0.160.0', transcriptWritten: true })).toBeNull();
    expect(notYetJoinable({ version: '0.171.0', transcriptWritten: false })).toBeNull();
    expect(joinArgs({ threadId: 't-1', url: 'ws://127.0.0.1:5' })).toEqual(['resume', 't-1', '--remote', 'ws://127.0.0.1:5', '--remote-auth-token-env', 'TETHER_CODEX_JOIN_TOKEN']);
  });
});
