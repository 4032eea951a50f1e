// tailSubagents against a real temp project folder laid out the way claude writes it.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { subagentDirFor, tailSubagents } from './subagents.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tether-sub-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function waitFor(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('tailSubagents', () => {
  it('maps a transcript path to its subagents folder', () => {
    expect(subagentDirFor('/c/projects/-tmp-proj/5f0c.jsonl')).toBe('/c/projects/-tmp-proj/5f0c/subagents');
  });

  it('finds agent files as they appear (folder created late) and tails each one', async () => {
    const dir = subagentDirFor(join(root, 'sess.jsonl'));
    const got: Array<{ line: string; path: string }> = [];
    const subs = tailSubagents({
      dir,
      pollMs: 20,
      onLines: (lines, _end, path) => got.push(...lines.map((line) => ({ line, path }))),
    });
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'agent-a1.meta.json'), '{"agentType":"Explore"}'); // not a transcript
      writeFileSync(join(dir, 'agent-a1.jsonl'), '{"a":1}\n');
      await waitFor(() => got.length === 1, 'agent a1');
      writeFileSync(join(dir, 'agent-b2.jsonl'), '{"b":1}\n');
      appendFileSync(join(dir, 'agent-a1.jsonl'), '{"a":2}\n');
      await waitFor(() => got.length === 3, 'b2 and a1 again');
      expect(got.filter((g) => g.path.endsWith('agent-a1.jsonl')).map((g) => g.line)).toEqual(['{"a":1}', '{"a":2}']);
      expect(got.filter((g) => g.path.endsWith('agent-b2.jsonl')).map((g) => g.line)).toEqual(['{"b":1}']);
      expect(subs.offsets()).toEqual({ 'agent-a1.jsonl': 16, 'agent-b2.jsonl': 8 });
    } finally {
      subs.stop();
    }
  });

  it('resumes each file from its saved offset', async () => {
    const dir = join(root, 'subagents');
    mkdirSync(dir);
    writeFileSync(join(dir, 'agent-a1.jsonl'), '{"a":1}\n{"a":2}\n');
    const got: string[] = [];
    const subs = tailSubagents({ dir, pollMs: 20, fromOffsets: { 'agent-a1.jsonl': 8 }, onLines: (l) => got.push(...l) });
    try {
      await waitFor(() => got.length === 1, 'line after offset');
      expect(got).toEqual(['{"a":2}']);
    } finally {
      subs.stop();
    }
  });
});
