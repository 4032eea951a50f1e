// A file change asked about in a PTY reaches the phone as its diff, whatever the agent, and the
// finished change shows as a diff in the chat:
//   Codex: a patch the sandbox refuses to write unasked (read-only here) is asked through its
//     PermissionRequest hook as `apply_patch` + the patch text; tether reads it into FileChanges (files
//     and unified diffs: the card a headless Codex's patch gets); the chat's call is FileChanges too.
//   Gemini: its `replace` is asked through tether's BeforeTool gate as claude's Edit (old and new
//     text: the diff card claude's Edit approvals get), and the chat shows the call the same way.
// Allowed on the phone → the file changed. At the pin TETHER_CODEX_BIN / TETHER_GEMINI_BIN names.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as codexApi from '../fixtures/fake-openai/index.ts';
import * as geminiApi from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCodexWorld } from '../harness/codex-world.ts';
import { startGeminiWorld } from '../harness/gemini-world.ts';

const defer = useCleanups();
const PATCH = '*** Begin Patch\n*** Update File: greeting.txt\n@@\n-hello\n+hello, world\n*** End Patch\n';
const CHANGES = [{ path: 'greeting.txt', kind: 'update', movePath: null, diff: '@@\n-hello\n+hello, world' }];

describe('file changes as diffs on the phone', () => {
  it('a PTY Codex patch: asked as its files and diffs, allowed on the phone, shown as a diff in the chat', async () => {
    const { runner, phone, sandbox } = await startCodexWorld(defer, {
      // Read-only: every write is asked (in workspace-write a patch inside the project runs unasked).
      args: ['-c', 'sandbox_mode="read-only"'],
      script: [codexApi.when(codexApi.userSays('go'), codexApi.execCommand(`apply_patch <<'EOF'\n${PATCH}EOF\n`, { callId: 'call_patch1' })), codexApi.when(codexApi.hasToolOutput(), codexApi.text('patched'))],
    });
    writeFileSync(join(sandbox.cwd, 'greeting.txt'), 'hello\n');
    await phone.send('go');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'permission'), { what: 'the patch on the hub' });
    expect(request).toMatchObject({ toolName: 'FileChanges', toolInput: { changes: CHANGES } });
    expect((await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await runner.waitForScreen('patched');
    expect(readFileSync(join(sandbox.cwd, 'greeting.txt'), 'utf8')).toBe('hello, world\n');
    const call = await phone.waitFor(() => phone.messages().flatMap((m) => m.content).find((b) => b.type === 'tool_use' && b.id === 'call_patch1'), { what: 'the patch in the chat' });
    expect(call).toMatchObject({ name: 'FileChanges', input: { changes: CHANGES } });
    expect(phone.requested.filter((r) => r.kind === 'dialog')).toEqual([]);
  }, 90_000);

  it('a PTY Gemini edit: asked as the old and the new text, allowed on the phone, shown as a diff in the chat', async () => {
    let cwd = '';
    const { runner, phone, sandbox } = await startGeminiWorld(defer, {
      script: [
        geminiApi.when(geminiApi.userSays('go'), () => geminiApi.functionCall('replace', { file_path: join(cwd, 'greeting.txt'), old_string: 'hello', new_string: 'hello, world', instruction: 'greet the world' })),
        geminiApi.when(geminiApi.hasToolResponse(), geminiApi.text('edited')),
      ],
    });
    cwd = sandbox.cwd;
    writeFileSync(join(cwd, 'greeting.txt'), 'hello\n');
    await phone.send('go');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'permission'), { what: 'the edit on the hub' });
    expect(request).toMatchObject({ toolName: 'Edit', toolInput: { file_path: join(cwd, 'greeting.txt'), old_string: 'hello', new_string: 'hello, world' } });
    expect((await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await runner.waitForScreen('edited');
    expect(readFileSync(join(cwd, 'greeting.txt'), 'utf8')).toBe('hello, world\n');
    const call = await phone.waitFor(() => phone.messages().flatMap((m) => m.content).find((b) => b.type === 'tool_use' && b.name === 'Edit'), { what: 'the edit in the chat' });
    expect(call).toMatchObject({ input: { file_path: join(cwd, 'greeting.txt'), old_string: 'hello', new_string: 'hello, world' } });
  }, 90_000);
});
