// Start-up dialogs of a PTY session started from the phone: claude's folder trust (a folder claude
// has never trusted) and "New MCP server found" (a .mcp.json in the project) are asked on the hub as
// `dialog` requests instead of blocking unseen; the spawn is acked because the session waits for the
// user, the session is "waiting", and choosing an option on the phone presses its key: the session
// becomes ready and chats. Nothing is chosen on the user's behalf.
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { text } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { emitAck, nextEvent } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';
import { startDaemonWorld } from '../harness/world.ts';
import { DialogInputSchema, type PendingRequest, type Session } from '@tether/shared';

const defer = useCleanups();

/** The key of the dialog's option whose label matches. */
function optionKey(request: PendingRequest, label: RegExp): string {
  const option = DialogInputSchema.parse(request.toolInput).options.find((o) => label.test(o.label));
  if (!option) throw new Error(`no option ${label} in ${JSON.stringify(request.toolInput)}`);
  return option.key;
}

describe('start-up dialogs of a phone-spawned PTY session', () => {
  it('folder trust is asked on the phone; choosing "Yes, I trust this folder" makes the session ready', async () => {
    const { sandbox, daemon, phone, startWatch } = await startDaemonWorld(defer, { script: [text('trusted and talking')] });
    const fresh = realpathSync(mkdtempSync(join(tmpdir(), 'tether-untrusted-')));
    const trusted = () =>
      (JSON.parse(readFileSync(join(sandbox.configDir, '.claude.json'), 'utf8')) as { projects?: Record<string, { hasTrustDialogAccepted?: boolean }> })
        .projects?.[fresh]?.hasTrustDialogAccepted === true;

    const requested = nextEvent<PendingRequest>(phone, 'approval:requested', 45_000);
    const ack = await emitAck<{ session: Session }>(phone, 'session:spawn', { machineId: daemon.machineId(), cwd: fresh, launchKind: 'pty' }, 60_000);
    expect(ack.ok).toBe(true);
    if (!ack.ok) return;
    // Acked because the session waits for the user, not because claude is ready.
    expect(ack.session).toMatchObject({ pendingCount: 1 });
    const request = await requested;
    expect(request).toMatchObject({ sessionId: ack.session.id, kind: 'dialog', toolName: 'Dialog' });
    expect(JSON.stringify(request.toolInput.text)).toContain(fresh);
    // Nothing trusted the folder behind the user's back (claude records it only once allowed).
    expect(trusted()).toBe(false);

    const watch = await startWatch(ack.session.id);
    await watch.waitFor(() => watch.session()?.status === 'waiting', { what: 'waiting for the trust answer', timeoutMs: 30_000 });
    const answer = await emitAck(phone, 'approval:answer', { requestId: request.id, answer: { decision: 'allow', choice: optionKey(request, /^Yes, I trust/) } });
    expect(answer.ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'ready after trusting', timeoutMs: 30_000 });
    expect(trusted()).toBe(true);
    await watch.send('hello in a new folder');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'trusted and talking'), { what: 'reply' });
    await emitAck(phone, 'session:stop', { sessionId: ack.session.id }, 30_000);
  });

  it('"New MCP server found" in a project with a .mcp.json: waiting for you, then ready once the phone answers', async () => {
    const { sandbox, daemon, phone, startWatch } = await startDaemonWorld(defer, { script: [text('mcp answered')] });
    writeFileSync(join(sandbox.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { 'probe-server': { command: 'true', args: [] } } }));

    const requested = nextEvent<PendingRequest>(phone, 'approval:requested', 45_000);
    const ack = await emitAck<{ session: Session }>(phone, 'session:spawn', { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind: 'pty' }, 60_000);
    expect(ack.ok).toBe(true);
    if (!ack.ok) return;
    expect(ack.session.pendingCount).toBe(1);
    const request = await requested;
    const input = DialogInputSchema.parse(request.toolInput);
    expect(input.title).toMatch(/MCP server/);
    expect(input.title).toContain('probe-server');
    expect(input.options.length).toBe(3);

    const watch = await startWatch(ack.session.id);
    await watch.waitFor(() => watch.session()?.status === 'waiting', { what: 'waiting for the MCP answer', timeoutMs: 30_000 });
    const answer = await emitAck(phone, 'approval:answer', { requestId: request.id, answer: { decision: 'allow', choice: optionKey(request, /^Continue without/) } });
    expect(answer.ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'ready after the MCP answer', timeoutMs: 30_000 });
    expect(watch.session()?.pendingCount).toBe(0);
    await watch.send('hello with an mcp config');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'mcp answered'), { what: 'reply' });
    await emitAck(phone, 'session:stop', { sessionId: ack.session.id }, 30_000);
  });
});
