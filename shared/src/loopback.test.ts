import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isUnspecifiedHost } from './loopback.ts';

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', 'localhost.', 'app.localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])('%s is loopback', (host) =>
    expect(isLoopbackHost(host)).toBe(true),
  );
  it.each(['0.0.0.0', '::', '192.168.1.20', '10.0.0.1', 'tether.example', 'localhost.example', '127.example', '1270.0.0.1', '::2', 'mylocalhost'])('%s is not', (host) =>
    expect(isLoopbackHost(host)).toBe(false),
  );
});

describe('isUnspecifiedHost', () => {
  it('knows both families, bracketed or not', () => {
    expect(['0.0.0.0', '::', '[::]'].map(isUnspecifiedHost)).toEqual([true, true, true]);
    expect(['127.0.0.1', '::1', 'localhost'].map(isUnspecifiedHost)).toEqual([false, false, false]);
  });
});
