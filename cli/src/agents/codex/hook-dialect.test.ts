import { describe, expect, it } from 'vitest';
import { codexHookDialect } from './hook-dialect.ts';

/** Codex's PermissionRequest payload for a patch (0.171.0; 0.160.0 the same), as its hook sent it. */
const PATCH = '*** Begin Patch\n*** Update File: greeting.txt\n@@\n-hello\n+hello, world\n*** Add File: new.txt\n+fresh\n*** End Patch';
const PAYLOAD = { session_id: 's1', hook_event_name: 'PermissionRequest', tool_name: 'apply_patch', tool_input: { command: PATCH } };

describe('Codex hook dialect', () => {
  it('a patch is asked as its files and diffs (FileChanges), on the permission and the tool’s start alike', () => {
    const changes = [
      { path: 'greeting.txt', kind: 'update', movePath: null, diff: '@@\n-hello\n+hello, world' },
      { path: 'new.txt', kind: 'add', movePath: null, diff: '+fresh' },
    ];
    expect(codexHookDialect.payload('permission-request', PAYLOAD)).toEqual({ ...PAYLOAD, tool_name: 'FileChanges', tool_input: { changes } });
    expect(codexHookDialect.payload('pre-tool-use', PAYLOAD)).toMatchObject({ tool_name: 'FileChanges', tool_input: { changes } });
  });

  it('leaves everything else as Codex sent it: other tools, other events, a patch it cannot read', () => {
    const bash = { ...PAYLOAD, tool_name: 'Bash', tool_input: { command: 'ls' } };
    expect(codexHookDialect.payload('permission-request', bash)).toBe(bash);
    expect(codexHookDialect.payload('post-tool-use', PAYLOAD)).toBe(PAYLOAD);
    const junk = { ...PAYLOAD, tool_input: { command: 'not a patch' } };
    expect(codexHookDialect.payload('permission-request', junk)).toBe(junk);
    expect(codexHookDialect.permission).toBeUndefined();
  });
});
