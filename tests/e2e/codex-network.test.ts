// Codex's network approvals answered from the phone, in both launch kinds, at the pin under test.
// Codex asks about a host only under its managed network proxy (an administrator's requirements.toml;
// the harness gives this one Codex a private /etc: codex-network.ts): a sandboxed `curl` to a loopback
// target the allowlist does not name is held while the phone decides. The phone reads which command
// and which host (`network-access http://127.0.0.1:<port>`); allowed → the target is reached and the
// model reads its page; denied → the target never sees the request and the model reads the refusal.
// Headless: item/commandExecution/requestApproval with networkApprovalContext; PTY: Codex's
// PermissionRequest hook (Bash, the running command, the target as its description), and once a key
// at the desk hands it to Codex's own dialog, that dialog with its question as the card's headline.
import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '@tether/shared';
import { execCommand, hasToolOutput, lastToolOutputs, text, userSays, when, type ScriptTurn } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCodexDaemonWorld, startCodexWorld } from '../harness/codex-world.ts';
import { startNetworkTarget } from '../harness/codex-network.ts';
import { CODEX_READY } from '../harness/codex.ts';
import type { SessionWatch } from '../harness/runner.ts';

const defer = useCleanups();

function networkWorld() {
  const target = startNetworkTarget();
  defer(() => target.stop());
  const curl = (path: string) => `curl -sS -m 5 --noproxy '' http://127.0.0.1:${target.port}${path}`;
  const saw = (request: Parameters<typeof lastToolOutputs>[0]) => (lastToolOutputs(request).some((o) => o.output.includes('hello from the target')) ? 'the page' : 'no page');
  const script: ScriptTurn[] = [
    when(userSays('fetch first'), execCommand(curl('/first'), { callId: 'call_net_first' })),
    when(hasToolOutput(), (request) => text(`first: ${saw(request)}`)),
    when(userSays('fetch second'), execCommand(curl('/second'), { callId: 'call_net_second' })),
    when(hasToolOutput(), (request) => text(`second: ${saw(request)}`)),
  ];
  return { target, curl, script };
}

/** The phone's card for the network request: the command that wants the host, and the host. */
async function networkRequest(phone: SessionWatch, o: { command: string; port: number; after: number }): Promise<PendingRequest> {
  const request = await phone.waitFor(() => phone.requested.slice(o.after).find((r) => r.toolName === 'Bash'), { what: 'the network request on the hub' });
  expect(request.toolInput).toMatchObject({ command: o.command, description: expect.stringMatching(new RegExp(`^network-access http://127\\.0\\.0\\.1:${o.port}\\b`)) });
  return request;
}

describe('Codex network approvals on the phone', () => {
  it('PTY: the hook names the command and the host; allowed → the target is reached; denied → it is not', async () => {
    const { target, curl, script } = networkWorld();
    const { runner, phone } = await startCodexWorld(defer, { managedNetwork: true, script });
    await phone.send('fetch first');
    const first = await networkRequest(phone, { command: curl('/first'), port: target.port, after: 0 });
    await phone.emit('approval:answer', { requestId: first.id, answer: { decision: 'allow' } });
    await runner.waitForScreen('first: the page');
    expect(target.paths).toEqual(['/first']);

    const asked = phone.requested.length;
    await phone.send('fetch second');
    const second = await networkRequest(phone, { command: curl('/second'), port: target.port, after: asked });
    await phone.emit('approval:answer', { requestId: second.id, answer: { decision: 'deny', reason: 'no network today' } });
    await runner.waitForScreen('second: no page');
    expect(target.paths).toEqual(['/first']);
  }, 120_000);

  it('headless: networkApprovalContext reaches the phone with the running command; allowed → reached; denied → not', async () => {
    const { target, curl, script } = networkWorld();
    const world = await startCodexDaemonWorld(defer, { managedNetwork: true, script });
    const { watch } = await world.spawn('headless');
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });
    await watch.send('fetch first');
    const first = await networkRequest(watch, { command: curl('/first'), port: target.port, after: 0 });
    expect((await watch.emit('approval:answer', { requestId: first.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await watch.waitFor(() => world.fake.mainRequests().some((r) => JSON.stringify(r).includes('hello from the target/first')), { what: 'the page in the model’s next request' });
    expect(target.paths).toEqual(['/first']);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the first' });

    const asked = watch.requested.length;
    await watch.send('fetch second');
    const second = await networkRequest(watch, { command: curl('/second'), port: target.port, after: asked });
    expect((await watch.emit('approval:answer', { requestId: second.id, answer: { decision: 'deny', reason: 'no network today' } })).ok).toBe(true);
    // The refusal as the call's output, and the reason steered in after it (headless-approvals.ts).
    await watch.waitFor(() => world.fake.mainRequests().some((r) => /call_net_second[^]*rejected by user[^]*no network today/.test(JSON.stringify(r))), { what: 'the refusal and its reason in the model’s next request' });
    expect(target.paths).toEqual(['/first']);
  }, 120_000);

  it('PTY, handed to the desk: Codex’s own dialog reaches the phone with its question (the host) as the headline; No from the phone → not reached', async () => {
    const { target, curl, script } = networkWorld();
    const { runner, phone } = await startCodexWorld(defer, { managedNetwork: true, script });
    await phone.send('fetch first');
    const hooked = await networkRequest(phone, { command: curl('/first'), port: target.port, after: 0 });
    // While its hook waits Codex shows only "Running hook": a key at the desk brings up its dialog.
    await runner.waitForScreen(/Running hook/);
    runner.write(' ');
    await phone.waitFor(() => phone.resolved.find((r) => r.requestId === hooked.id), { what: 'the hook’s request withdrawn' });
    const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'Codex’s dialog on the hub' });
    const input = dialog.toolInput as { headline?: string; options: Array<{ key: string; label: string }> };
    expect(input.headline).toBe('Do you want to approve network access to "127.0.0.1"?');
    const no = input.options.find((o) => /^No\b/.test(o.label));
    expect(no).toBeDefined();
    expect((await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: no!.key } })).ok).toBe(true);
    await runner.waitForScreen(CODEX_READY);
    expect(target.paths).toEqual([]);
  }, 120_000);
});
