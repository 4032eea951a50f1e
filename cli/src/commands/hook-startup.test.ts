// hook-startup.test.ts: `tether hook` runs on every tool call of Codex and Gemini (and claude's
// SessionStart), so what it loads is its start-up time. Its static import closure (main.ts, the
// verb table, the verb and the hook client) must not reach zod or the schemas of @tether/shared: one
// `import { isUuid } from '@tether/shared'` in command.ts took a hook from 25 ms to 90 ms (bench:
// codex_hook_process_ms_p50 36 → 169). Dynamic imports are not followed: they load on demand.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = resolve(import.meta.dirname, '..');
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm;

/** Every module the files reach by static, non-type imports: ours by path, packages by name. */
function closure(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(STATIC_IMPORT)) {
      if (spec!.startsWith('.')) {
        if (spec!.endsWith('.ts')) visit(join(dirname(file), spec!));
      } else packages.add(spec!);
    }
  };
  for (const entry of entries) visit(entry);
  return { files, packages };
}

describe('tether hook start-up', () => {
  it('loads neither zod nor the schemas of @tether/shared (only its zod-free entries)', () => {
    const { files, packages } = closure(['main.ts', 'commands/hook.ts', 'hooks/client.ts'].map((f) => join(CLI, f)));
    expect(files.size).toBeGreaterThan(3);
    expect([...packages].filter((p) => p === 'zod' || p === '@tether/shared' || p.startsWith('zod/'))).toEqual([]);
  });
});
