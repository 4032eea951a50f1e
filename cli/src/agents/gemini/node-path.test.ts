import { describe, expect, it } from 'vitest';
import { pathForNodeAgent } from './node-path.ts';

describe('pathForNodeAgent', () => {
  const nodeIn = (dirs: string[]) => (dir: string) => dirs.includes(dir);

  it('drops Bun\'s node stand-in when a real node is further on', () => {
    expect(pathForNodeAgent('/tmp/bun-node-1a2b:/usr/local/bin:/usr/bin', nodeIn(['/usr/local/bin']))).toBe('/usr/local/bin:/usr/bin');
  });

  it('keeps PATH as it is when Bun\'s node is the only node, or when there is no stand-in', () => {
    expect(pathForNodeAgent('/tmp/bun-node-1a2b:/usr/bin', nodeIn([]))).toBe('/tmp/bun-node-1a2b:/usr/bin');
    expect(pathForNodeAgent('/usr/local/bin:/usr/bin', nodeIn(['/usr/local/bin']))).toBe('/usr/local/bin:/usr/bin');
  });
});
