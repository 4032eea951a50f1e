// attachments.test.ts: a photo from the phone reaches the real claude, in a PTY and headless, and
// `/` commands: the list the runner reports holds the project's own command (from the test
// project's .claude/commands), and sending it runs it.
//
//   phone ─POST /api/sessions/:id/attachments─► hub ─prompt:deliver {attachments}─► tether claude
//     PTY:      file under the session's temp dir, `@/path text` typed ─► claude reads it ─► image block
//     headless: stream-json [image, text] ─► claude ─► image block
//   (the fake Messages API records what claude sent: the image block must be in it)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionCommands } from '@tether/shared';
import { text, userSays, when, type FakeAnthropic } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { uploadAttachment } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';
import { spawnVia } from '../harness/daemon.ts';
import { DESK_READY, startDaemonWorld, startStage } from '../harness/world.ts';

const defer = useCleanups();

/** A 2×2 PNG (red, green / blue, white): small, and claude takes it for an image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
const NOTES = 'Release checklist:\n- bump the version\n- tag it\n';
const RELEASE_COMMAND = '---\ndescription: Cut a release and tag it\nargument-hint: <version>\n---\nPrepare release number $ARGUMENTS of this project.\n';
const E2E_TIMEOUT_MS = 90_000;

const upload = (hub: { url: string; token: string }, sessionId: string, data: Uint8Array, name: string) => uploadAttachment(hub, { sessionId, data, name });

/** Every content block claude sent in a user message of a main-loop request. */
function userBlocks(fake: FakeAnthropic): Array<Record<string, unknown>> {
  return fake
    .mainRequests()
    .flatMap((request) => request.messages)
    .filter((message) => message.role === 'user' && Array.isArray(message.content))
    .flatMap((message) => message.content as Array<Record<string, unknown>>);
}
const imageBlocks = (fake: FakeAnthropic) =>
  userBlocks(fake).filter((block) => block.type === 'image' && (block.source as { data?: string } | undefined)?.data === PNG.toString('base64'));

/** What GET /api/sessions/:id/commands answers once the runner reported (it does at connect). */
async function commandsOf(hub: { url: string; token: string }, sessionId: string): Promise<SessionCommands> {
  const read = async () => (await (await fetch(`${hub.url}/api/sessions/${sessionId}/commands`, { headers: { authorization: `Bearer ${hub.token}` } })).json()) as SessionCommands;
  await expect.poll(async () => (await read()).reportedAt, { timeout: 20_000, message: 'the runner reported its slash commands' }).not.toBeNull();
  return read();
}

describe('attachments and slash commands with the real claude', () => {
  it('PTY: a photo is written for claude and named with @path; claude sends it to the model as an image', async () => {
    const stage = await startStage(defer, {
      script: [when(userSays(/what is in this picture/), text('A tiny four-colour square.')), when(userSays(/release number 1\.4/), text('Release 1.4 prepared.'))],
    });
    const { hub, fake, sandbox } = stage;
    // The project's own command, there before claude (and the runner) start, as in a real checkout.
    mkdirSync(join(sandbox.cwd, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sandbox.cwd, '.claude', 'commands', 'release.md'), RELEASE_COMMAND);
    const runner = stage.startRunner();
    const phone = await stage.startWatch(runner.sessionId);
    await runner.waitForScreen(DESK_READY);
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session', timeoutMs: 30_000 });

    const attachment = await upload(hub, runner.sessionId, PNG, 'IMG_0042.PNG');
    const sent = await phone.emit('prompt:send', { sessionId: runner.sessionId, promptId: crypto.randomUUID(), text: 'what is in this picture?', attachments: [attachment.id] });
    expect(sent.ok).toBe(true);
    const promptId = (sent.prompt as { id: string }).id;
    await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes('A tiny four-colour square.')), { what: 'the reply', timeoutMs: 30_000 });
    // Typed as `@<session temp dir>/<prompt>/1-IMG_0042.png what is in this picture?`, confirmed by the transcript.
    await phone.waitFor(() => phone.prompts().get(promptId)?.status === 'delivered', { what: 'prompt delivered' });
    const user = phone.messages().find((m) => m.promptId === promptId);
    expect(user && chatText(user)).toMatch(/^@\/\S+\/tether-attachments-[^/]+\/[0-9a-f-]{36}\/1-IMG_0042\.png what is in this picture\?$/);
    // claude read the file and sent its bytes as an image block (what it does for an @path image at the desk).
    expect(imageBlocks(fake).length).toBeGreaterThan(0);

    // `/` lists the project's command with its description; sending it runs it.
    const commands = await commandsOf(hub, runner.sessionId);
    expect(commands.commands.find((c) => c.name === 'release')).toEqual({ name: 'release', description: 'Cut a release and tag it', argumentHint: '<version>', source: 'project', opensPicker: false });
    expect(commands.commands.find((c) => c.name === 'model')).toMatchObject({ source: 'builtin', opensPicker: true });
    const release = await phone.send('/release 1.4');
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('Release 1.4 prepared.')), { what: 'the command’s reply', timeoutMs: 30_000 });
    await phone.waitFor(() => phone.prompts().get(release.promptId)?.status === 'delivered', { what: 'the command delivered' });
  }, E2E_TIMEOUT_MS);

  it('headless: a photo and a text file go to claude as content blocks; its own command list has the project command', async () => {
    const { hub, fake, daemon, phone, sandbox, startWatch } = await startDaemonWorld(defer, {
      script: [when(userSays(/describe both/), text('A square and a checklist.')), when(userSays(/release number 2\.0/), text('Release 2.0 prepared.'))],
    });
    mkdirSync(join(sandbox.cwd, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sandbox.cwd, '.claude', 'commands', 'release.md'), RELEASE_COMMAND);
    const ack = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, permissionMode: 'default' });
    expect(ack.ok).toBe(true);
    const sessionId = ack.session!.id;
    const watch = await startWatch(sessionId);

    const photo = await upload(hub, sessionId, PNG, 'photo.png');
    const notes = await upload(hub, sessionId, new TextEncoder().encode(NOTES), 'notes.txt');
    const sent = await watch.emit('prompt:send', { sessionId, promptId: crypto.randomUUID(), text: 'describe both', attachments: [photo.id, notes.id] });
    expect(sent.ok).toBe(true);
    const promptId = (sent.prompt as { id: string }).id;
    await watch.waitFor(() => watch.messages().find((m) => chatText(m).includes('A square and a checklist.')), { what: 'the reply', timeoutMs: 30_000 });
    await watch.waitFor(() => watch.prompts().get(promptId)?.status === 'delivered', { what: 'prompt delivered' });
    expect(imageBlocks(fake)).toHaveLength(1);
    expect(JSON.stringify(userBlocks(fake))).toContain('bump the version');
    const user = watch.messages().find((m) => m.promptId === promptId);
    expect(user?.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual(['[image]', '[document]', 'describe both']);

    const commands = await commandsOf(hub, sessionId);
    expect(commands.commands.find((c) => c.name === 'release')).toMatchObject({ description: expect.stringContaining('Cut a release and tag it'), argumentHint: '<version>' });
    const release = await watch.send('/release 2.0');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m).includes('Release 2.0 prepared.')), { what: 'the command’s reply', timeoutMs: 30_000 });
    expect(release.ok).toBe(true);
  }, E2E_TIMEOUT_MS);
});
