import { describe, expect, it } from 'vitest';
import { createOpencodeEventReader, opencodeAsk } from './server-events.ts';
import { createSseParser } from './server-link.ts';
import { readOpencodePrompt } from './screen.ts';

const S = 'ses_db2f7f8ccffetVTCLj5LPSYP3e';
const at = () => '2026-12-06T00:00:00.000Z';
const ev = (type: string, properties: Record<string, unknown>) => ({ type, properties });
const user = (id: string) => ev('message.updated', { sessionID: S, info: { id, role: 'user', sessionID: S } });
const assistant = (id: string, completed = false) => ev('message.updated', { sessionID: S, info: { id, role: 'assistant', sessionID: S, time: completed ? { created: 1, completed: 2 } : { created: 1 } } });
const part = (p: Record<string, unknown>) => ev('message.part.updated', { sessionID: S, part: { sessionID: S, ...p } });

describe('opencode server events (1.18.33, as seen on its /event stream)', () => {
  it('a turn: the session, the prompt, the streamed answer written once its message completes, its end told once', () => {
    const reader = createOpencodeEventReader({ now: at });
    const actions = [
      ev('session.created', { sessionID: S, info: { id: S } }),
      user('msg_u'),
      part({ id: 'prt_u', messageID: 'msg_u', type: 'text', text: 'go' }),
      ev('session.status', { sessionID: S, status: { type: 'busy' } }),
      assistant('msg_a'),
      part({ id: 'prt_a', messageID: 'msg_a', type: 'text', text: '', time: { start: 1 } }),
      ev('message.part.delta', { sessionID: S, messageID: 'msg_a', partID: 'prt_a', field: 'text', delta: 'o' }),
      ev('message.part.delta', { sessionID: S, messageID: 'msg_a', partID: 'prt_a', field: 'text', delta: 'k' }),
      assistant('msg_a', true),
      ev('session.status', { sessionID: S, status: { type: 'idle' } }),
      ev('session.idle', { sessionID: S }),
    ].flatMap((e) => reader.read(e));
    expect(actions).toEqual([
      { kind: 'session', sessionId: S },
      { kind: 'prompt', sessionId: S, text: 'go' },
      { kind: 'line', line: { t: 'user', id: 'prt_u', at: at(), text: 'go' } },
      { kind: 'line', line: { t: 'assistant', id: 'prt_a', at: at(), text: 'ok' } },
      { kind: 'turn-ended', sessionId: S },
    ]);
  });

  it('a resumed session (`--session <id>`): its first prompt comes before any event names the session', () => {
    const reader = createOpencodeEventReader({ now: at, opened: S });
    const actions = [user('msg_u'), part({ id: 'prt_u', messageID: 'msg_u', type: 'text', text: 'again' }), ev('session.updated', { sessionID: S, info: { id: S } })].flatMap((e) => reader.read(e));
    expect(actions).toEqual([
      { kind: 'session', sessionId: S },
      { kind: 'prompt', sessionId: S, text: 'again' },
      { kind: 'line', line: { t: 'user', id: 'prt_u', at: at(), text: 'again' } },
    ]);
    // Without it, that prompt is not taken (what 1.18.33 sends: the user message, then session.updated).
    expect([user('msg_u'), part({ id: 'prt_u', messageID: 'msg_u', type: 'text', text: 'again' })].flatMap((e) => createOpencodeEventReader({ now: at }).read(e))).toEqual([]);
  });

  it('a sub-agent session, a synthetic part and another session are not the chat', () => {
    const reader = createOpencodeEventReader({ now: at });
    reader.read(ev('session.created', { sessionID: S, info: { id: S } }));
    reader.read(ev('session.created', { sessionID: 'ses_child', info: { id: 'ses_child', parentID: S } }));
    expect(reader.read(ev('message.updated', { sessionID: 'ses_child', info: { id: 'm1', role: 'user', sessionID: 'ses_child' } }))).toEqual([]);
    reader.read(user('msg_u'));
    expect(reader.read(part({ id: 'p1', messageID: 'msg_u', type: 'text', text: 'file contents', synthetic: true }))).toEqual([]);
    expect(reader.read(ev('permission.asked', { id: 'per_1', sessionID: 'ses_child', permission: 'bash', patterns: ['ls'] }))).toEqual([]);
  });

  it('a finished tool part: its line in claude words and its result', () => {
    const reader = createOpencodeEventReader({ now: at });
    reader.read(ev('session.created', { sessionID: S, info: { id: S } }));
    reader.read(user('msg_u'));
    expect(reader.read(part({ id: 'prt_t', callID: 'call_1', messageID: 'msg_a', type: 'tool', tool: 'bash', state: { status: 'running', input: { command: 'ls' } } }))).toEqual([]);
    expect(reader.read(part({ id: 'prt_t', callID: 'call_1', messageID: 'msg_a', type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: 'ls', description: 'list' }, output: 'a.txt' } }))).toEqual([
      { kind: 'line', line: { t: 'tool', id: 'call_1', at: at(), name: 'Bash', input: { command: 'ls', description: 'list' } } },
      { kind: 'line', line: { t: 'result', id: 'call_1', at: at(), output: 'a.txt', isError: false } },
    ]);
  });

  it('permission requests in the words the phone draws; a reply by either side', () => {
    expect(opencodeAsk({ id: 'per_1', sessionID: S, permission: 'bash', patterns: ['touch a.txt'], metadata: {} })).toEqual({ id: 'per_1', sessionId: S, toolName: 'Bash', toolInput: { command: 'touch a.txt' } });
    const diff = 'Index: /p/src/a.ts\n===\n--- /p/src/a.ts\n+++ /p/src/a.ts\n@@ -1,1 +1,1 @@\n-a\n+b\n';
    expect(opencodeAsk({ id: 'per_2', sessionID: S, permission: 'edit', patterns: ['src/a.ts'], metadata: { filepath: '/p/src/a.ts', diff } })).toEqual({
      id: 'per_2',
      sessionId: S,
      toolName: 'FileChanges',
      toolInput: { changes: [{ path: '/p/src/a.ts', kind: 'update', movePath: null, diff: '@@ -1,1 +1,1 @@\n-a\n+b' }] },
    });
    // An edit naming no file is still asked, by its patterns.
    expect(opencodeAsk({ id: 'per_3', sessionID: S, permission: 'edit', patterns: ['src/b.ts'], metadata: {} })).toEqual({ id: 'per_3', sessionId: S, toolName: 'edit', toolInput: { patterns: ['src/b.ts'] } });
    expect(opencodeAsk({ sessionID: S, permission: 'bash' })).toBeNull();
    const reader = createOpencodeEventReader({ now: at });
    expect(reader.read(ev('permission.replied', { sessionID: S, requestID: 'per_1', reply: 'once' }))).toEqual([{ kind: 'replied', id: 'per_1' }]);
  });
});


describe('its SSE stream', () => {
  it('splits events across chunks, skips what is not JSON', () => {
    const seen: unknown[] = [];
    const parse = createSseParser((data) => seen.push(data));
    parse('data: {"type":"a"}\n\ndata: {"ty');
    parse('pe":"b"}\n\ndata: nope\n\n');
    expect(seen).toEqual([{ type: 'a' }, { type: 'b' }]);
  });
});

describe('its screen (1.18.33)', () => {
  const rows = (lines: string[]) => lines.map((text) => ({ text, strong: text }));
  const box = (inside: string[], below: string) => rows(['     hi there', ...inside.map((l) => `  ┃  ${l}`), '  ┃  Build · Fake Model Fake', '  ╹▀▀▀▀▀▀▀▀▀▀▀▀', below]);
  it('ready with an empty input (blank or its placeholder), with typed text, busy, and its permission dialog', () => {
    expect(readOpencodePrompt({ rows: box(['', 'Ask anything… "What is the tech stack of this project?"', ''], '  tab agents  ctrl+p commands') })).toEqual({ kind: 'ready', inputEmpty: true });
    // 1.17.0's placeholder (seen attached to its server).
    expect(readOpencodePrompt({ rows: box(['', 'Ask anything... "Fix broken tests"', ''], '  tab agents  ctrl+p commands') })).toEqual({ kind: 'ready', inputEmpty: true });
    expect(readOpencodePrompt({ rows: box(['', 'hello', ''], '  ctrl+p commands') })).toEqual({ kind: 'ready', inputEmpty: false });
    expect(readOpencodePrompt({ rows: box(['', '', ''], '  ⬝⬝■■  esc interrupt') })).toEqual({ kind: 'busy' });
    expect(readOpencodePrompt({ rows: rows(['  ┃  △ Permission required', '  ┃   Allow once   Allow always   Reject']) })).toEqual({ kind: 'dialog' });
    expect(readOpencodePrompt({ rows: rows(['', 'loading']) })).toEqual({ kind: 'starting' });
  });
});
