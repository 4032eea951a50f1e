import { describe, expect, it } from 'vitest';
import type { ChatMessageInput } from '@tether/shared';
import { aiTitleOf, createSessionTitle, promptTitleOf, TITLE_MAX_CHARS } from './title.ts';

const user = (text: string, extra: Partial<ChatMessageInput> = {}): ChatMessageInput => ({
  id: crypto.randomUUID(),
  role: 'user',
  content: [{ type: 'text', text }],
  createdAt: 1,
  sidechain: false,
  agentId: null,
  promptId: null,
  agentSessionId: null,
  ...extra,
});
const aiLine = (t: string) => JSON.stringify({ type: 'ai-title', aiTitle: t, sessionId: 's' });

describe('session title', () => {
  it('reads ai-title lines and nothing else', () => {
    expect(aiTitleOf(aiLine('Fix the login bug'))).toBe('Fix the login bug');
    expect(aiTitleOf('{"type":"user","message":{"content":"ai-title"}}')).toBeNull();
    expect(aiTitleOf('not json "ai-title"')).toBeNull();
  });

  it('falls back to the first prompt line, then lets claude name it', () => {
    const changes: string[] = [];
    const t = createSessionTitle({ initial: { title: 'proj', source: 'cwd' }, onChange: (title) => changes.push(title) });
    t.take([], [user('/model sonnet'), user('  \nRefactor the parser\nand more')]);
    expect(t.title).toBe('Refactor the parser');
    t.take([], [user('second prompt')]);
    expect(t.title).toBe('Refactor the parser');
    t.take([aiLine('Parser refactor')], []);
    t.take([], [user('third')]);
    expect(changes).toEqual(['Refactor the parser', 'Parser refactor']);
    expect(t.source).toBe('ai');
  });

  it('takes the words of a prompt sent with files, not the files\' @paths', () => {
    expect(promptTitleOf(user('@/tmp/tether-attachments-Ab12/0b6c4f4e-8a51-4d3c-9f0e-2c7b1a9d8e34/1-shot.png @/tmp/tether-attachments-Ab12/0b6c4f4e-8a51-4d3c-9f0e-2c7b1a9d8e34/2-b.png why is this red?'))).toBe('why is this red?');
    expect(promptTitleOf(user('@/tmp/tether-attachments-Ab12/0b6c4f4e-8a51-4d3c-9f0e-2c7b1a9d8e34/1-shot.png '))).toBeNull();
    expect(promptTitleOf(user('@src/main.ts explain this'))).toBe('@src/main.ts explain this');
    expect(promptTitleOf(user('[image]', { content: [{ type: 'text', text: '[image]' }, { type: 'text', text: 'and this?' }] }))).toBe('and this?');
    expect(promptTitleOf(user('[image]'))).toBeNull();
  });

  it('ignores subagent prompts and trims long lines', () => {
    const t = createSessionTitle({ initial: { title: 'proj', source: 'cwd' }, onChange: () => {} });
    t.take([], [user('agent task', { sidechain: true })]);
    expect(t.title).toBe('proj');
    t.take([], [user('x'.repeat(200))]);
    expect(t.title.length).toBe(TITLE_MAX_CHARS);
    expect(t.title.endsWith('…')).toBe(true);
  });
});
