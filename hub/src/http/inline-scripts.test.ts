// inline-scripts.test.ts: script-src allows exactly the inline scripts of the build's index.html.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDir } from '../testing/test-dir.ts';
import { inlineScriptSources } from './inline-scripts.ts';

describe('inlineScriptSources', () => {
  it("hashes each inline script's bytes as the browser does, and never a script with a src", () => {
    const dist = testDir('tether-inline-');
    const body = "\n      window.x = 1;\n    ";
    writeFileSync(join(dist, 'index.html'), `<head><script>${body}</script><script type="module" src="/assets/main.js"></script></head>`);
    expect(inlineScriptSources(dist)).toEqual([`'sha256-${createHash('sha256').update(body).digest('base64')}'`]);
  });

  it('allows nothing inline without a build', () => {
    expect(inlineScriptSources(undefined)).toEqual([]);
    expect(inlineScriptSources(testDir('tether-inline-'))).toEqual([]);
  });
});
