// sshd-nodelay.test.ts: the relay turns Nagle off on a socket another process holds (as it does for
// sshd's tunnels): a python3 child connects with Nagle on (the default) and reads the option back
// before and after.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { descendants, noDelayOn } from './sshd-nodelay.ts';

const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
afterAll(() => server.stop(true));

describe('TCP_NODELAY on another process’s sockets', () => {
  it('sets it once per socket, and the holder sees it set', async () => {
    const script = `import socket, sys
s = socket.create_connection(('127.0.0.1', ${server.port}))
print(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY), flush=True)
sys.stdin.readline()
print(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY), flush=True)
sys.stdin.readline()`;
    const child = spawn('python3', ['-c', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      expect((await lines.next()).value).toBe('0');
      expect(descendants(process.pid)).toContain(child.pid);
      const done = new Set<string>();
      expect(noDelayOn([child.pid!], done)).toEqual({ set: 1, failed: 0 });
      expect(noDelayOn([child.pid!], done)).toEqual({ set: 0, failed: 0 });
      child.stdin!.write('\n');
      expect(Number((await lines.next()).value)).toBeGreaterThan(0);
    } finally {
      child.kill();
    }
  }, 15_000);
});
