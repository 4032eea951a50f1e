import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatLogPath, createChatLog } from './chat-log.ts';
import { createChatLogReader } from './chat-log-reader.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function logIn() {
  const dir = mkdtempSync(join(tmpdir(), 'chat-log-'));
  dirs.push(dir);
  return createChatLog({ dir, agent: 'opencode', sessionId: 'ses_db4517537ffe3RxbKIQZWM7MZC' });
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

describe('the chat log of an ACP agent', () => {
  it('joins a message\'s chunks into one line, written only once it is whole; a tool call once it ran; read back as chat', () => {
    const log = logIn();
    log.prompt('go');
    log.update({ sessionUpdate: 'agent_message_chunk', messageId: 'msg_1', content: { type: 'text', text: 'Running ' } });
    log.update({ sessionUpdate: 'agent_message_chunk', messageId: 'msg_1', content: { type: 'text', text: 'it.' } });
    expect(lines(log.path)).toHaveLength(1);
    log.update({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'bash', kind: 'execute', status: 'pending', rawInput: {} });
    log.update({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'in_progress', title: 'echo hi', rawInput: { command: 'echo hi', description: 'say hi' } });
    log.update({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'hi\n' } }] });
    log.update({ sessionUpdate: 'agent_message_chunk', messageId: 'msg_2', content: { type: 'text', text: 'Done.' } });
    log.flush();
    const read = createChatLogReader().read(lines(log.path), { matchPrompt: (text) => (text === 'go' ? 'prompt-1' : null) });
    expect(read.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', [{ type: 'text', text: 'go' }]],
      ['assistant', [{ type: 'text', text: 'Running it.' }]],
      ['assistant', [{ type: 'tool_use', id: 'call_1', name: 'Bash', input: { command: 'echo hi', description: 'say hi' } }]],
      ['user', [{ type: 'tool_result', toolUseId: 'call_1', content: 'hi\n', isError: false }]],
      ['assistant', [{ type: 'text', text: 'Done.' }]],
    ]);
    expect(read.messages[0]?.promptId).toBe('prompt-1');
    // Read again (a resume): the same ids, so the hub drops the copies.
    expect(createChatLogReader().read(lines(log.path), {}).messages.map((m) => m.id)).toEqual(read.messages.map((m) => m.id));
    expect(statSync(log.path).mode & 0o777).toBe(0o600);
  });

  // opencode 1.18.33's session/prompt result: {stopReason, usage: {inputTokens, outputTokens, totalTokens, thoughtTokens?, cachedReadTokens?}}.
  it('adds each turn\'s usage to what the session had used, once per line however often it is read', () => {
    const log = logIn();
    log.prompt('one');
    log.usage({ inputTokens: 100, outputTokens: 10, totalTokens: 110 });
    log.prompt('two');
    log.usage({ inputTokens: 20, outputTokens: 5, thoughtTokens: 3, cachedReadTokens: 100, totalTokens: 128 });
    log.usage({ inputTokens: 0, outputTokens: 0 });
    log.usage('junk');
    const reader = createChatLogReader({ usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 50, contextTokens: 900, contextWindow: 200_000 } });
    const read = reader.read(lines(log.path), {});
    expect(read.messages.map((m) => m.role)).toEqual(['user', 'user']);
    expect(read.usage).toEqual({ inputTokens: 1220, cachedInputTokens: 100, outputTokens: 68, contextTokens: 120, contextWindow: 200_000 });
    expect(reader.read(lines(log.path), {}).usage).toBeUndefined();
  });

  it('names its file only by an agent session id: a path in one is refused', () => {
    expect(() => chatLogPath({ dir: '/x', agent: 'opencode', sessionId: '../../etc/passwd' })).toThrow();
    expect(chatLogPath({ dir: '/x', agent: 'opencode', sessionId: 'ses_db4517537ffe3RxbKIQZWM7MZC' })).toBe('/x/opencode/ses_db4517537ffe3RxbKIQZWM7MZC.jsonl');
  });
});
