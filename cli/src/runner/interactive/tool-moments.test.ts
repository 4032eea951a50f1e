import { describe, expect, it } from 'vitest';
import type { ChatMessageInput } from '@tether/shared';
import { callShows, createToolMoments } from './tool-moments.ts';

const NOW = 1_700_000_000_000;

function world() {
  let offset = 0;
  const marked: number[] = [];
  const moments = createToolMoments({
    run: 'run-1',
    offset: () => offset,
    mark: () => marked.push(offset),
    now: () => NOW,
  });
  return { moments, marked, at: (n: number) => void (offset = n) };
}

const use = (id: string, createdAt = NOW): ChatMessageInput => ({
  id: crypto.randomUUID(),
  role: 'assistant',
  createdAt,
  content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }],
});
const result = (id: string, createdAt = NOW): ChatMessageInput => ({
  id: crypto.randomUUID(),
  role: 'user',
  createdAt,
  content: [{ type: 'tool_result', toolUseId: id, content: 'ok', isError: false }],
});

describe('tool moments', () => {
  it('stamps the hook moments: the tool_use with its start, the tool_result with start and end', () => {
    const { moments, marked, at } = world();
    at(100);
    moments.started('t1');
    at(150);
    const [stampedUse] = moments.stamp([use('t1')]);
    at(400);
    moments.ended('t1');
    at(450);
    const [stampedResult] = moments.stamp([result('t1')]);
    expect(stampedUse!.content[0]).toMatchObject({ terminalOffset: { run: 'run-1', start: 100 } });
    expect(stampedUse!.content[0]).not.toHaveProperty('terminalOffset.end');
    expect(stampedResult!.content[0]).toMatchObject({ terminalOffset: { run: 'run-1', start: 100, end: 400 } });
    // Each moment marked the screen model once, at its own offset.
    expect(marked).toEqual([100, 400]);
  });

  it('a read-only call (no hooks) takes its moments when its transcript lines are read', () => {
    const { moments, at } = world();
    at(70);
    const [stampedUse, stampedResult] = moments.stamp([use('r1'), result('r1')]);
    expect(stampedUse!.content[0]).toMatchObject({ terminalOffset: { start: 70 } });
    expect(stampedResult!.content[0]).toMatchObject({ terminalOffset: { start: 70, end: 70 } });
  });

  it('a hook moment wins over the later transcript read, and is taken once', () => {
    const { moments, marked, at } = world();
    at(10);
    moments.started('t');
    at(20);
    moments.started('t');
    const [stamped] = moments.stamp([use('t')]);
    expect(stamped!.content[0]).toMatchObject({ terminalOffset: { start: 10 } });
    expect(marked).toEqual([10]);
  });

  it('old transcript lines (a resume re-reading history) get no moment', () => {
    const { moments, marked, at } = world();
    at(500);
    const [old] = moments.stamp([use('old', NOW - 60_000)]);
    expect(old!.content[0]).not.toHaveProperty('terminalOffset');
    expect(marked).toEqual([]);
  });

  it('messages without tool blocks pass through untouched', () => {
    const { moments } = world();
    const text: ChatMessageInput = { id: crypto.randomUUID(), role: 'assistant', createdAt: NOW, content: [{ type: 'text', text: 'hi' }] };
    expect(moments.stamp([text])[0]).toBe(text);
  });
});

describe('what a call shows on screen', () => {
  it('is the first line of its first string input, a path by its file name, cut to 24 characters', () => {
    expect(callShows({ command: 'echo second-call\necho more', description: 'Second' })).toBe('echo second-call');
    expect(callShows({ file_path: '/home/dev/src/app/server.ts', old_string: 'a' })).toBe('server.ts');
    expect(callShows({ pattern: 'a very long search pattern that claude would cut' })).toBe('a very long search patte');
    expect(callShows({ n: 1, s: 'ab' })).toBeUndefined();
    expect(callShows(null)).toBeUndefined();
  });
});
