// review-gemini.test.ts: Gemini reviews another agent's session (issue 41, "any agent reviews any
// other"). A claude session started from the phone through a real `tether daemon` has a change in its
// working tree; `review:start --agent gemini` starts Gemini in plan mode (`--approval-mode plan`) on the
// same machine and folder: headless, read-only by Gemini's own plan mode; in a PTY, by tether's gate
// (agents/gemini/gate.ts: Gemini in yolo, every write refused by its BeforeTool hook). Its first request
// carries the diff (checked at the fake Gemini API); a write it tries is refused without asking anyone
// and the file stays as it was; its findings land on the card.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Review, Session } from '@tether/shared';
import { hasToolResponse, lastToolResponses, lastUserText, startFakeGemini, text, userSays, when, writeFile } from '../fixtures/fake-gemini/index.ts';
import { git } from '../../cli/src/testing/git-repo.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { spawnVia, startDaemon } from '../harness/daemon.ts';
import { emitAck } from '../harness/hub.ts';
import { createGeminiSandbox, geminiBin } from '../harness/gemini.ts';
import { connectPhone, startStage } from '../harness/world.ts';

const defer = useCleanups();
const FINDINGS = 'notes.txt now says phone; the README still says desk.';


describe.each(['headless', 'pty'] as const)('Gemini reviews (%s)', (launchKind) => {
  it('a claude session read-only: the diff in its first request, its write refused in plan mode, its findings on the card', async () => {
    const stage = await startStage(defer);
    const { hub, sandbox } = stage;
    const notes = join(sandbox.cwd, 'notes.txt');
    git(sandbox.cwd, 'init', '-q');
    writeFileSync(notes, 'desk\n');
    git(sandbox.cwd, 'add', '-A');
    git(sandbox.cwd, 'commit', '-q', '-m', 'first');
    writeFileSync(notes, 'phone\n');

    const fake = await startFakeGemini({
      script: [when(userSays('diff --git'), writeFile(notes, 'rewritten by the reviewer\n')), when(hasToolResponse(), text(FINDINGS))],
    });
    defer(() => fake.stop());
    const gemini = createGeminiSandbox({ fakeApiUrl: fake.url });
    defer(() => gemini.stop());
    // One machine with both agents: claude's sandbox, and Gemini's home and fake API beside it.
    const env = { ...sandbox.env, GEMINI_CLI_HOME: gemini.home, GOOGLE_GEMINI_BASE_URL: gemini.env.GOOGLE_GEMINI_BASE_URL!, GEMINI_API_KEY: gemini.env.GEMINI_API_KEY! };
    const daemon = await startDaemon({ hub, sandbox: { env, cwd: sandbox.cwd }, env: { TETHER_GEMINI_BIN: geminiBin() } });
    defer(() => daemon.stop());
    const phone = await connectPhone(defer, hub);

    const parent = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, agent: 'claude', launchKind: 'headless' });
    expect(parent.error).toBeUndefined();
    const parentId = parent.session!.id;

    const started = (await emitAck(phone, 'review:start', { sessionId: parentId, agent: 'gemini', focus: 'the notes', launchKind }, 60_000)) as { ok: boolean; review?: Review; session?: Session; error?: string };
    expect(started.error).toBeUndefined();
    expect(started.session).toMatchObject({ parentId, agent: 'gemini', launchKind, machineId: daemon.machineId(), cwd: sandbox.cwd, permissionMode: 'plan' });
    const first = await fake.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && lastUserText(r.body).includes('diff --git'), { timeoutMs: 60_000 });
    expect(lastUserText(first.body!)).toContain('-desk\n+phone');
    expect(lastUserText(first.body!)).toContain('The person asks you to focus on:\nthe notes');

    // Its write is refused in plan mode, not put to a person; the file is as the parent left it.
    const refused = await fake.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && lastToolResponses(r.body).some((t) => t.name === 'write_file'), { timeoutMs: 60_000 });
    const why = lastToolResponses(refused.body!).find((t) => t.name === 'write_file')?.output;
    // Headless, Gemini's own (0.58.0 and 0.61.0): "Access denied: plan path (…) must be within the
    // designated plans directory"; in a PTY, tether's gate: the reason the model reads.
    expect(why).toMatch(launchKind === 'headless' ? /denied/i : /plan mode \(read-only\)/);
    expect(readFileSync(notes, 'utf8')).toBe('phone\n');

    let card: Review | undefined;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline && card?.state !== 'answered'; await Bun.sleep(300)) {
      const listed = (await emitAck(phone, 'review:list', { sessionId: parentId })) as { reviews?: Review[] };
      card = listed.reviews?.find((r) => r.id === started.review!.id);
    }
    expect(card).toMatchObject({ parentId, agent: 'gemini', state: 'answered', finalAnswer: FINDINGS });
    const children = (await emitAck(phone, 'review:list', { sessionId: parentId })) as { reviews?: Review[] };
    expect(children.reviews).toHaveLength(1);
    expect((await emitAck(phone, 'review:end', { reviewId: card!.id }, 30_000)).ok).toBe(true);
    expect((await emitAck(phone, 'session:stop', { sessionId: parentId }, 30_000)).ok).toBe(true);
  }, 180_000);
});
