// reviews.test.ts: a second opinion from another agent (issue 29), end to end with the real CLIs
// against the fake APIs: a claude session (started from the phone through a real `tether daemon`)
// edits a committed file; `tether review <it> --agent codex` starts a headless Codex reviewer on the
// same machine and folder, read-only; its first prompt holds that diff and the focus (checked at the
// fake Responses API); its answer appears on the parent's review card (`tether chat <parent>`, text
// and --json); "Send to claude" becomes a prompt claude receives (checked at the fake Messages API);
// End leaves the card ended, read-only. Also the reverse (a Codex session reviewed by claude in plan
// mode) and a review across a hub restart (killed and started again: card, answer and link stay).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Review, Session } from '@tether/shared';
import { hasToolResult, lastUserText as claudeUserText, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { lastUserText as codexUserText, startFakeOpenAI, text as codexText } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { codexBin, createCodexSandbox } from '../harness/codex.ts';
import { spawnVia, startDaemon } from '../harness/daemon.ts';
import { emitAck, startRestartableHub } from '../harness/hub.ts';
import { createClaudeSandbox, type ClaudeSandbox } from '../harness/claude.ts';
import { startFakeAnthropic } from '../fixtures/fake-anthropic/index.ts';
import { watchSession } from '../harness/runner.ts';
import { chatText } from '../harness/runner.ts';
import { runTether } from '../harness/tether-cli.ts';
import { connectPhone, startStage } from '../harness/world.ts';
import { greetingEdit } from '../fixtures/greeting-edit.ts';

const defer = useCleanups();

function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
}

const FINDINGS = 'src/greet.ts:2 now greets the phone; the test in greet.test.ts still expects hello.';
const SENT = `A Codex review says: ${FINDINGS}`;

/** Codex in the claude sandbox's folder against a fake Responses API (`openai`: its options), a daemon
 *  on the hub that finds both agents, and a phone to start sessions with. */
async function withCodex(hub: { url: string; token: string }, sandbox: ClaudeSandbox, openaiOptions: Parameters<typeof startFakeOpenAI>[0]) {
  const openai = await startFakeOpenAI(openaiOptions);
  defer(() => openai.stop());
  const codex = createCodexSandbox({ fakeApiUrl: openai.url, cwd: sandbox.cwd });
  defer(() => codex.stop());
  const env = { ...sandbox.env, CODEX_HOME: codex.codexHome, FAKE_OPENAI_KEY: codex.env.FAKE_OPENAI_KEY! };
  const daemon = await startDaemon({ hub, sandbox: { env, cwd: sandbox.cwd }, env: { TETHER_CODEX_BIN: codexBin() } });
  defer(() => daemon.stop());
  const phone = await connectPhone(defer, hub);
  return { openai, daemon, phone };
}

describe('a review by another agent', () => {
  it('claude edits a file; tether review --agent codex starts a read-only Codex with that diff; its answer is on the card; Send to claude reaches claude', async () => {
    const stage = await startStage(defer);
    const { hub, sandbox } = stage;
    const file = join(sandbox.cwd, 'src', 'greet.ts');
    stage.fake.setScript([
      ...greetingEdit(file),
      when(userSays(/A Codex review says/), text('I will fix the test too.')),
    ]);
    git(sandbox.cwd, 'init', '-q');
    mkdirSync(join(sandbox.cwd, 'src'));
    writeFileSync(file, "export function greet() {\n  return 'hello';\n}\n");
    git(sandbox.cwd, 'add', '-A');
    git(sandbox.cwd, 'commit', '-q', '-m', 'first');

    // Codex in the same folder, against the fake Responses API; the daemon finds both agents.
    const { openai, daemon, phone } = await withCodex(hub, sandbox, { script: [(request) => (codexUserText(request).includes('diff --git') ? codexText(FINDINGS) : codexText('no diff seen'))] });

    // 1. A claude session edits a file.
    const spawned = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, agent: 'claude', launchKind: 'headless', permissionMode: 'acceptEdits' });
    expect(spawned.error).toBeUndefined();
    const parentId = spawned.session!.id;
    const watch = await stage.startWatch(parentId);
    await watch.send('Please change the greeting');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'greeting edited'), { what: 'the edit', timeoutMs: 60_000 });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the edit' });

    // 2. tether review … --agent codex: a Codex child whose first prompt holds the diff and the focus.
    const cliEnv = { TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_HOME: stage.tempDir('tether-review-cli-') };
    const started = await runTether({ args: ['review', parentId, '--agent', 'codex', '--focus', 'the greeting text', '--json'], env: cliEnv });
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    const { review, session } = JSON.parse(started.stdout) as { review: Review; session: Session };
    expect(review).toMatchObject({ parentId, agent: 'codex', focus: 'the greeting text' });
    expect(session).toMatchObject({ id: review.id, parentId, agent: 'codex', cwd: sandbox.cwd, machineId: daemon.machineId(), launchKind: 'headless' });
    const first = await openai.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && codexUserText(r.body).includes('diff --git'), { timeoutMs: 60_000 });
    const prompt = codexUserText(first.body!);
    expect(prompt).toContain("diff --git a/src/greet.ts b/src/greet.ts\n@@ -1,3 +1,3 @@\n export function greet() {\n-  return 'hello';\n+  return 'hello, phone';\n }");
    expect(prompt).toContain('The person asks you to focus on:\nthe greeting text');
    expect(prompt).toContain('You run read-only');
    // Codex itself says it runs in its read-only sandbox, asking before escalating (on-request), where
    // the sandbox's own config says workspace-write.
    const whole = JSON.stringify(first.body);
    expect(whole).toContain('`sandbox_mode` is `read-only`');
    expect(whole).toContain('# Escalation Requests');

    // 3. The child's answer appears on the parent's card, in `tether chat <parent>` (--json and text).
    let card: Review | undefined;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await Bun.sleep(500)) {
      const chat = await runTether({ args: ['chat', parentId, '--json'], env: cliEnv });
      expect(chat.code).toBe(0);
      card = chat.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { review?: Review }).find((line) => line.review)?.review;
      if (card?.state === 'answered') break;
    }
    expect(card).toMatchObject({ id: review.id, state: 'answered', finalAnswer: FINDINGS });
    const human = await runTether({ args: ['chat', parentId], env: cliEnv });
    expect(human.stdout).toContain(`[review ${review.id}] codex · answered (read-only) · focus: the greeting text\n  ${FINDINGS}`);
    expect(human.stdout).toContain('[assistant] greeting edited');

    // 4. "Send to claude": the findings (edited) become a prompt claude receives.
    const sent = await emitAck<{ prompt: { sessionId: string } }>(phone, 'review:send', { reviewId: review.id, promptId: crypto.randomUUID(), text: SENT });
    expect(sent.ok).toBe(true);
    const toClaude = await stage.fake.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && claudeUserText(r.body).includes('A Codex review says'), { timeoutMs: 60_000 });
    expect(claudeUserText(toClaude.body!)).toBe(SENT);
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'I will fix the test too.'), { what: "claude's answer", timeoutMs: 60_000 });

    // End: the reviewer stops, the card stays ended with its answer.
    const ended = await emitAck<{ review: Review }>(phone, 'review:end', { reviewId: review.id }, 30_000);
    expect(ended.ok && ended.review).toMatchObject({ id: review.id, state: 'ended', finalAnswer: FINDINGS });
    expect((await emitAck(phone, 'session:stop', { sessionId: parentId }, 30_000)).ok).toBe(true);
  }, 240_000);

  it('the reverse: a Codex session reviewed by claude (read-only: plan mode), and Send to Codex reaches Codex', async () => {
    const stage = await startStage(defer);
    const { hub, sandbox } = stage;
    const file = join(sandbox.cwd, 'src', 'greet.ts');
    stage.fake.setScript([when(userSays(/diff --git/), text(CLAUDE_FINDINGS))]);
    git(sandbox.cwd, 'init', '-q');
    mkdirSync(join(sandbox.cwd, 'src'));
    writeFileSync(file, "export function greet() {\n  return 'hello';\n}\n");
    git(sandbox.cwd, 'add', '-A');
    git(sandbox.cwd, 'commit', '-q', '-m', 'first');
    const { openai, daemon, phone } = await withCodex(hub, sandbox, {
      script: [(request) => (codexUserText(request).includes('A Claude review says') ? codexText('Codex takes the review.') : codexText('greeting changed'))],
      fallback: codexText('Codex takes the review.'),
    });

    // A headless Codex session whose working tree has a change (written here for it: a scripted
    // Codex edit needs its patch tool; the review reads the working tree either way).
    const spawned = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, agent: 'codex', launchKind: 'headless' });
    expect(spawned.error).toBeUndefined();
    const parentId = spawned.session!.id;
    const watch = await stage.startWatch(parentId);
    writeFileSync(file, "export function greet() {\n  return 'hello, desk';\n}\n");
    await watch.send('Please change the greeting');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'greeting changed'), { what: "Codex's answer", timeoutMs: 60_000 });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });

    const cliEnv = { TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_HOME: stage.tempDir('tether-review-cli-') };
    const started = await runTether({ args: ['review', parentId, '--agent', 'claude', '--json'], env: cliEnv });
    expect(started.stderr).toBe('');
    const { review, session } = JSON.parse(started.stdout) as { review: Review; session: Session };
    expect(session).toMatchObject({ parentId, agent: 'claude', permissionMode: 'plan' });
    const first = await stage.fake.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && claudeUserText(r.body).includes('diff --git'), { timeoutMs: 60_000 });
    expect(claudeUserText(first.body!)).toContain("-  return 'hello';\n+  return 'hello, desk';");

    const card = next(phone, review.id);
    expect((await emitAck(phone, 'session:watch', { sessionId: parentId })).ok).toBe(true);
    const listed = await emitAck<{ reviews: Review[] }>(phone, 'review:list', { sessionId: parentId });
    const answered = listed.ok && listed.reviews[0]?.state === 'answered' ? listed.reviews[0] : await card;
    expect(answered).toMatchObject({ id: review.id, agent: 'claude', state: 'answered', finalAnswer: CLAUDE_FINDINGS });

    const sent = await emitAck(phone, 'review:send', { reviewId: review.id, promptId: crypto.randomUUID(), text: `A Claude review says: ${CLAUDE_FINDINGS}` });
    expect(sent.ok).toBe(true);
    const toCodex = await openai.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && codexUserText(r.body).includes('A Claude review says'), { timeoutMs: 60_000 });
    expect(codexUserText(toCodex.body!)).toBe(`A Claude review says: ${CLAUDE_FINDINGS}`);
    expect((await emitAck(phone, 'review:end', { reviewId: review.id }, 30_000)).ok).toBe(true);
    expect((await emitAck(phone, 'session:stop', { sessionId: parentId }, 30_000)).ok).toBe(true);
  }, 240_000);
});

describe('a review across a hub restart', () => {
  it('the card, its answer and its link to the parent survive the hub being killed and started again', async () => {
    const fake = await startFakeAnthropic({});
    defer(() => fake.stop());
    const hubProcess = await startRestartableHub(defer);
    const { hub } = hubProcess;
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const file = join(sandbox.cwd, 'greet.ts');
    fake.setScript([
      // Read first: claude's floor refuses to overwrite a file it has not read.
      when(userSays(/greeting/), toolUse('Read', { file_path: file }, { id: 'toolu_read' })),
      when(hasToolResult({ id: 'toolu_read', isError: false }), toolUse('Write', { file_path: file, content: "export const greet = () => 'hello, restart';\n" }, { id: 'toolu_write' })),
      when(hasToolResult({ id: 'toolu_write', isError: false }), text('greeting written')),
      when(userSays(/after the restart/), text('heard after the restart')),
    ]);
    git(sandbox.cwd, 'init', '-q');
    writeFileSync(file, "export const greet = () => 'hello';\n");
    git(sandbox.cwd, 'add', '-A');
    git(sandbox.cwd, 'commit', '-q', '-m', 'first');
    const { openai, daemon, phone } = await withCodex(hub, sandbox, { script: [codexText(FINDINGS)] });
    const spawned = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, agent: 'claude', launchKind: 'headless', permissionMode: 'acceptEdits' });
    expect(spawned.error).toBeUndefined();
    const parentId = spawned.session!.id;
    const watch = await watchSession({ hub, sessionId: parentId });
    defer(() => watch.stop());
    await watch.send('Please write the greeting');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'greeting written'), { what: 'the write', timeoutMs: 60_000 });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });

    const cliEnv = { TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_HOME: mkdtempSync(join(tmpdir(), 'tether-review-cli-')) };
    defer(() => rmSync(cliEnv.TETHER_HOME, { recursive: true, force: true }));
    const started = await runTether({ args: ['review', parentId, '--agent', 'codex', '--json'], env: cliEnv });
    expect(started.stderr).toBe('');
    const { review } = JSON.parse(started.stdout) as { review: Review };
    const card = async () => {
      const chat = await runTether({ args: ['chat', parentId, '--json'], env: cliEnv });
      return chat.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { review?: Review }).find((line) => line.review)?.review;
    };
    for (const deadline = Date.now() + 60_000; Date.now() < deadline && (await card())?.state !== 'answered'; ) await Bun.sleep(500);
    expect(await card()).toMatchObject({ id: review.id, state: 'answered', finalAnswer: FINDINGS });

    await hubProcess.kill('SIGKILL');
    await hubProcess.start();
    // The same card, answer and link from the restarted hub; the runners came back by themselves.
    expect(await card()).toMatchObject({ id: review.id, state: 'answered', finalAnswer: FINDINGS, parentId });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'the parent back and idle', timeoutMs: 30_000 });
    const again = await connectPhone(defer, hub);
    const sent = await emitAck(again, 'review:send', { reviewId: review.id, promptId: crypto.randomUUID(), text: `after the restart: ${FINDINGS}` });
    expect(sent.ok).toBe(true);
    await fake.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && claudeUserText(r.body).includes('after the restart'), { timeoutMs: 60_000 });
    const ended = await emitAck<{ review: Review }>(again, 'review:end', { reviewId: review.id }, 30_000);
    expect(ended.ok && ended.review).toMatchObject({ state: 'ended', finalAnswer: FINDINGS });
    expect((await emitAck(again, 'session:stop', { sessionId: parentId }, 30_000)).ok).toBe(true);
  }, 240_000);
});

const CLAUDE_FINDINGS = "src/greet.ts:2 says 'hello, desk'; nothing else changed.";

/** The next review:updated for `reviewId` in state answered. */
function next(phone: import('socket.io-client').Socket, reviewId: string): Promise<Review> {
  return new Promise((resolve) => {
    const on = (review: Review) => {
      if (review.id !== reviewId || review.state !== 'answered') return;
      phone.off('review:updated', on);
      resolve(review);
    };
    phone.on('review:updated', on);
  });
}
