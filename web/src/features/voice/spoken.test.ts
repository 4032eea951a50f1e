// spoken.test.ts: the words hands-free says and the option a spoken answer picks.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, PendingRequest } from '@tether/shared';
import { matchOption, MAX_SPOKEN_CHARS, plainSpeech, replySpeech, requestSpeech, voiceQuestion } from './spoken.ts';

const message = (over: Partial<ChatMessage>): ChatMessage => ({
  id: 'm1',
  sessionId: '11111111-1111-4111-8111-111111111111',
  seq: 1,
  role: 'assistant',
  content: [{ type: 'text', text: 'Done.' }],
  createdAt: 0,
  sidechain: false,
  agentId: null,
  promptId: null,
  agentSessionId: null,
  ...over,
});

const question = (questions: unknown[]): PendingRequest => ({
  id: 'r1',
  sessionId: '11111111-1111-4111-8111-111111111111',
  kind: 'question',
  toolName: 'AskUserQuestion',
  toolInput: { questions },
  toolUseId: null,
  createdAt: 0,
});

const DB = { question: 'Which database?', header: 'DB', multiSelect: false, options: [{ label: 'SQLite', description: '' }, { label: 'PostgreSQL', description: '' }, { label: 'PostgreSQL 16', description: '' }] };

describe('spoken', () => {
  it('reads markdown as prose: code named, marks and link targets dropped, long text cut', () => {
    expect(plainSpeech('## Done\n- **fixed** `parse()`\n```ts\nconst x = 1;\n```\nSee [the docs](https://x.test).')).toBe('Done fixed parse() (code) See the docs.');
    const long = plainSpeech('word '.repeat(600));
    expect(long.length).toBeLessThanOrEqual(MAX_SPOKEN_CHARS + 30);
    expect(long).toMatch(/the rest is on screen\)$/);
  });

  it('speaks main-thread assistant text only', () => {
    expect(replySpeech(message({ content: [{ type: 'text', text: 'All **green**.' }] }))).toBe('All green.');
    expect(replySpeech(message({ role: 'user' }))).toBeNull();
    expect(replySpeech(message({ sidechain: true }))).toBeNull();
    expect(replySpeech(message({ content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] }))).toBeNull();
  });

  it('asks a single-choice question with its options, and sends others to the screen', () => {
    expect(requestSpeech(question([DB]), 'Claude')).toBe('Claude asks: Which database? Say SQLite, PostgreSQL, or PostgreSQL 16.');
    expect(voiceQuestion(question([{ ...DB, multiSelect: true }]))).toBeNull();
    expect(requestSpeech(question([DB, DB]), 'Codex')).toBe('Codex has questions for you. Answer them on screen.');
    expect(requestSpeech({ ...question([]), kind: 'permission', toolName: 'Bash' }, 'Claude')).toBe('Claude asks to use Bash.');
  });

  it('matches a spoken option by label (longest wins), by number, and refuses ambiguity', () => {
    const labels = DB.options.map((o) => o.label);
    expect(matchOption('SQLite please', labels)).toBe('SQLite');
    expect(matchOption('use postgresql 16.', labels)).toBe('PostgreSQL 16');
    expect(matchOption('Postgres QL', labels)).toBeNull();
    expect(matchOption('the second one', labels)).toBe('PostgreSQL');
    expect(matchOption('option 1', labels)).toBe('SQLite');
    expect(matchOption('sqlite or postgresql', labels)).toBeNull();
    expect(matchOption('no idea', labels)).toBeNull();
  });
});
