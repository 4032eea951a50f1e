import { describe, expect, it } from 'vitest';
import { networkQuestion, readNetworkContext, runningCommands } from './network-access.ts';

// Params as 0.171.0's app server sent them for a sandboxed curl to a loopback target.
const PARAMS = {
  kind: 'command',
  itemId: 'network#local#http#127.0.0.1#41065#5623d461-3678-47e7-acf4-384324aa0108',
  reason: 'Network access to 127.0.0.1 requires approval',
  networkApprovalContext: { host: '127.0.0.1', protocol: 'http' },
};

describe('Codex network approvals', () => {
  it('reads the host, the protocol and the port of Codex’s own id', () => {
    expect(readNetworkContext(PARAMS)).toEqual({ host: '127.0.0.1', protocol: 'http', port: 41065 });
  });

  it('no context, or one without a host: not a network approval', () => {
    expect(readNetworkContext({ kind: 'command', command: 'ls' })).toBeNull();
    expect(readNetworkContext({ networkApprovalContext: { host: '', protocol: 'http' } })).toBeNull();
  });

  it('an id of another shape (or another host) gives no port', () => {
    expect(readNetworkContext({ ...PARAMS, itemId: 'call_1' })?.port).toBeNull();
    expect(readNetworkContext({ ...PARAMS, itemId: 'network#local#http#other.example#80#x' })?.port).toBeNull();
  });

  it('the card: the running command, the target in Codex’s words and its reason', () => {
    const context = readNetworkContext(PARAMS)!;
    expect(networkQuestion({ context, runningCommand: 'curl http://127.0.0.1:41065/', reason: PARAMS.reason })).toEqual({
      toolName: 'Bash',
      toolInput: { command: 'curl http://127.0.0.1:41065/', description: 'network-access http://127.0.0.1:41065: Network access to 127.0.0.1 requires approval' },
    });
  });

  it('no command known: the target stands for it', () => {
    const context = { host: 'example.com', protocol: 'https', port: null };
    expect(networkQuestion({ context, runningCommand: null, reason: null }).toolInput).toEqual({ command: 'network-access https://example.com', description: 'network-access https://example.com' });
  });

  it('the command a network approval is for: the one running, none when two are; a late item/started is awaited', async () => {
    const running = runningCommands({ announcedMs: 5_000 });
    const waited = running.announced();
    running.started({ id: 'call_1', command: 'curl http://127.0.0.1:1/' });
    await waited;
    expect(running.sole()).toEqual({ id: 'call_1', command: 'curl http://127.0.0.1:1/' });
    running.started({ id: 'call_2', command: 'curl http://127.0.0.1:2/' });
    expect(running.sole()).toBeNull();
    running.completed('call_1');
    expect(running.sole()?.id).toBe('call_2');
    running.clear();
    expect(running.sole()).toBeNull();
  });

  it('no command announced: the wait ends on its own', async () => {
    const started = Date.now();
    await runningCommands({ announcedMs: 20 }).announced();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
