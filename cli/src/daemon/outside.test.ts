import { appendFileSync, mkdirSync, mkdtempSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DaemonSpawnSchema, OUTSIDE_ADOPT_MAX_BYTES, type OutsideIndex } from '@tether/shared';
import { claudeAgent } from '../agents/claude/agent.ts';
import { claudeConversations } from '../agents/claude/conversations.ts';
import { batches, createOutsideIndexer } from './outside.ts';
import { adoptRefusal } from './adopt-check.ts';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const OURS = '33333333-3333-4333-8333-333333333333';
const dirs: string[] = [];
const indexers: Array<{ stop(): void }> = [];
afterEach(() => {
  indexers.splice(0).forEach((i) => i.stop());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function world() {
  const root = mkdtempSync(join(tmpdir(), 'outside-'));
  dirs.push(root);
  const config = join(root, 'claude');
  const home = join(root, 'tether');
  const project = join(config, 'projects', '-work-app');
  mkdirSync(project, { recursive: true });
  mkdirSync(join(home, 'claude-sessions'), { recursive: true });
  const write = (id: string, prompt: string, ageMs = 60_000) => {
    const path = join(project, `${id}.jsonl`);
    writeFileSync(path, `${JSON.stringify({ type: 'user', cwd: '/work/app', sessionId: id, message: { role: 'user', content: prompt } })}\n`);
    const t = (Date.now() - ageMs) / 1000;
    utimesSync(path, t, t);
    return path;
  };
  const sent: OutsideIndex[] = [];
  const env = { CLAUDE_CONFIG_DIR: config };
  const indexer = createOutsideIndexer({ env, tetherHome: home, sources: [{ agent: 'claude', source: claudeConversations }], send: (b) => sent.push(b) });
  indexers.push(indexer);
  return { root, config, home, project, write, sent, indexer, env };
}

const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('the daemon’s outside index', () => {
  it('reports the whole index once, leaving out what tether ran; then only what changed', async () => {
    const w = world();
    w.write(A, 'first');
    w.write(OURS, 'tether ran this');
    writeFileSync(join(w.home, 'claude-sessions', `${OURS}.json`), '{}');
    w.indexer.start();
    expect(w.sent).toHaveLength(1);
    expect(w.sent[0]).toMatchObject({ reset: true, complete: true, entries: [{ agentSessionId: A, folder: '/work/app', title: 'first', live: false }] });

    // A new conversation appears: only it is sent (the watch, debounced), and it is live (just written).
    w.write(B, 'second', 0);
    await until(() => w.sent.length >= 2);
    expect(w.sent[1]!.entries.map((e) => [e.agentSessionId, e.live])).toEqual([[B, true]]);
    // Once out of the live window it is sent again, not live.
    await until(() => w.sent.some((b) => b.entries.some((e) => e.agentSessionId === B && !e.live)), 9_000);
    // Gone from disk: removed.
    rmSync(join(w.project, `${A}.jsonl`));
    await until(() => w.sent.some((b) => b.removed?.includes(A)));
  }, 20_000);

  it('batches stay under the event caps', () => {
    const entry = { agent: 'claude' as const, agentSessionId: A, folder: `/${'d'.repeat(4000)}`, title: 't', lastActivity: 1, sizeBytes: 1, live: false };
    const cut = batches(Array.from({ length: 300 }, () => entry), [B]);
    expect(cut.length).toBeGreaterThan(2);
    for (const b of cut) expect(JSON.stringify(b).length).toBeLessThan(600 * 1024);
    expect(cut.at(-1)!.removed).toEqual([B]);
  });

  it('an adopt is refused for a live writer, a huge record, a line that is not JSON; an ended one passes', () => {
    const w = world();
    const path = w.write(A, 'hello');
    const request = DaemonSpawnSchema.parse({ sessionId: B, cwd: '/work/app', launchKind: 'headless', agent: 'claude', resumeAgentSessionId: A, adopting: true });
    const check = () => adoptRefusal({ request, found: w.indexer.find(A), agent: claudeAgent, env: w.env });
    expect(check()).toBeNull();

    mkdirSync(join(w.config, 'sessions'));
    writeFileSync(join(w.config, 'sessions', `${process.pid}.json`), JSON.stringify({ pid: process.pid, sessionId: A }));
    expect(check()).toMatchObject({ ok: false, reason: 'session_live', error: expect.stringContaining('cannot be shared while it runs') });
    rmSync(join(w.config, 'sessions'), { recursive: true });

    appendFileSync(path, 'not json\n{"type":"x"}\n');
    utimesSync(path, Date.now() / 1000 - 60, Date.now() / 1000 - 60);
    expect(check()).toMatchObject({ ok: false, reason: 'not_resumable', error: expect.stringContaining('line 2') });

    truncateSync(path, OUTSIDE_ADOPT_MAX_BYTES + 1);
    utimesSync(path, Date.now() / 1000 - 60, Date.now() / 1000 - 60);
    expect(check()).toMatchObject({ ok: false, reason: 'not_resumable', error: expect.stringContaining('over the 64 MB') });

    expect(adoptRefusal({ request: { ...request, resumeAgentSessionId: OURS }, found: w.indexer.find(OURS), agent: claudeAgent, env: w.env })).toMatchObject({ code: 'not_found' });
  });
});
