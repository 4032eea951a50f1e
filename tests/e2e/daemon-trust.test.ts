// A PTY session started from the phone in a folder claude has never trusted: the trust dialog is
// asked on the hub (permission request, toolName TrustFolder) instead of blocking unseen; allowing
// it from the phone presses the right key and the session becomes ready and chats.
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { text } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { emitAck, nextEvent } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';
import { startDaemonWorld } from '../harness/world.ts';
import type { PendingRequest, Session } from '@tether/shared';

const defer = useCleanups();

describe('trust dialog of a first-time folder', () => {
  it('is asked on the phone; allowing it makes the PTY session ready', async () => {
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
    expect(ack.session).toMatchObject({ status: 'starting', pendingCount: 1 });
    const request = await requested;
    expect(request).toMatchObject({ sessionId: ack.session.id, kind: 'permission', toolName: 'TrustFolder', toolInput: { cwd: fresh } });
    // Nothing trusted the folder behind the user's back (claude records it only once allowed).
    expect(trusted()).toBe(false);

    const watch = await startWatch(ack.session.id);
    const answer = await emitAck(phone, 'approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
    expect(answer.ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'ready after trusting', timeoutMs: 30_000 });
    expect(trusted()).toBe(true);
    await watch.send('hello in a new folder');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'trusted and talking'), { what: 'reply' });
    await emitAck(phone, 'session:stop', { sessionId: ack.session.id }, 30_000);
  });
});
