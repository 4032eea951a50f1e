// rollout.test.ts: what a person sent, as Codex's rollout records it. The image line is real: written
// by Codex 0.169.0's app-server for a turn/start with a text and a localImage input.
import { describe, expect, it } from 'vitest';
import { createRolloutReader } from './rollout.ts';

const WITH_IMAGE =
  '{"timestamp":"2026-11-25T08:41:50.297Z","ordinal":8,"type":"event_msg","payload":{"type":"item_completed","thread_id":"01a211de-4916-7e80-a88d-a82561a33ab7","turn_id":"01a211de-4948-7040-a6ca-b920e187400a","item":{"type":"UserMessage","id":"01a211de-49d6-7623-b2ca-46592be1db78","content":[{"type":"text","text":"what is in this picture","text_elements":[]},{"type":"local_image","path":"/tmp/tether-codex-jV7jWW/project/dot.png"}]},"started_at_ms":1795596110297,"completed_at_ms":1795596110297}}';

describe('Codex rollout: the person’s messages', () => {
  it('an image sent with a prompt shows as [image]; the prompt is matched by its text alone', () => {
    const asked: string[] = [];
    const read = createRolloutReader().read([WITH_IMAGE], { matchPrompt: (text) => (asked.push(text), text === 'what is in this picture' ? 'prompt-1' : null) });
    expect(asked).toEqual(['what is in this picture']);
    expect(read.messages).toHaveLength(1);
    expect(read.messages[0]).toMatchObject({
      role: 'user',
      promptId: 'prompt-1',
      content: [
        { type: 'text', text: 'what is in this picture' },
        { type: 'text', text: '[image]' },
      ],
    });
  });

  it('a PTY prompt with a pasted image: the composer’s "[Image #1]" placeholder is not the person’s text', () => {
    // Written by Codex 0.171.0's TUI for a path pasted alone, then the text.
    const line =
      '{"timestamp":"2026-11-27T08:35:52.156Z","ordinal":8,"type":"event_msg","payload":{"type":"item_completed","thread_id":"01a21c25-81be-7de1-ab6e-c72e5b25a1eb","turn_id":"01a21c25-89bc-7e62-94fc-fa1157d07a91","item":{"type":"UserMessage","id":"01a21c25-8ada-75b3-8cb0-a81f1879b4ba","client_id":"1179f07d-8e4b-4161-b1bf-88c2d40da0d0","content":[{"type":"local_image","path":"/tmp/tether-codex-fEy3Fq/project/photo.png"},{"type":"text","text":"[Image #1] what is in this picture?","text_elements":[{"byte_range":{"start":0,"end":10},"placeholder":"[Image #1]"}]}]},"started_at_ms":1795768552156,"completed_at_ms":1795768552156}}';
    const read = createRolloutReader().read([line], { matchPrompt: (text) => (text === 'what is in this picture?' ? 'prompt-2' : null) });
    expect(read.messages[0]).toMatchObject({ promptId: 'prompt-2', content: [{ type: 'text', text: 'what is in this picture?' }, { type: 'text', text: '[image]' }] });
    // A range that does not hold its placeholder (or a person who typed the same words) is kept.
    const typed = line.replace('"start":0,"end":10', '"start":1,"end":11');
    expect(createRolloutReader().read([typed], {}).messages[0]?.content[0]).toEqual({ type: 'text', text: '[Image #1] what is in this picture?' });
  });

  it('a prompt without images is its text, as before', () => {
    const line = WITH_IMAGE.replace(',{"type":"local_image","path":"/tmp/tether-codex-jV7jWW/project/dot.png"}', '');
    expect(createRolloutReader().read([line], {}).messages[0]?.content).toEqual([{ type: 'text', text: 'what is in this picture' }]);
  });
});

describe('Codex rollout: apply_patch', () => {
  it('a patch call shows as its files and diffs (FileChanges), not the patch text', () => {
    const line = JSON.stringify({
      timestamp: '2026-11-25T08:41:51.000Z',
      type: 'response_item',
      payload: { type: 'custom_tool_call', call_id: 'call_patch', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch' },
    });
    const [message] = createRolloutReader().read([line], {}).messages;
    expect(message?.content).toEqual([{ type: 'tool_use', id: 'call_patch', name: 'FileChanges', input: { changes: [{ path: 'a.txt', kind: 'add', movePath: null, diff: '+hi' }] } }]);
  });
});

describe('Codex rollout: apply_patch run through exec_command', () => {
  it('shows as its files and diffs too (Codex intercepts it and applies it as a patch)', () => {
    const cmd = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: greeting.txt\n@@\n-hello\n+hello, world\n*** End Patch\nEOF\n";
    const line = JSON.stringify({ timestamp: '2026-12-06T13:59:02.324Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd }), call_id: 'call_p1' } });
    const [message] = createRolloutReader().read([line], {}).messages;
    expect(message?.content).toEqual([{ type: 'tool_use', id: 'call_p1', name: 'FileChanges', input: { changes: [{ path: 'greeting.txt', kind: 'update', movePath: null, diff: '@@\n-hello\n+hello, world' }] } }]);
  });
});
