// Feeds bytes recorded from real claude 2.1.197 (fixtures/*.jsonl: {t,d} chunks and {mark} labels
// placed when the recording script looked at the screen) and checks the state at each mark.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScreenModel } from '../../screen/screen.ts';
import type { PromptState } from '../../screen/prompt-state.ts';
import { readPromptState } from './prompt-state.ts';

type Entry = { t: number; d: string } | { mark: string };

async function statesAtMarks(file: string): Promise<Record<string, PromptState>> {
  const entries = readFileSync(join(import.meta.dirname, 'screen-fixtures', file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Entry);
  const screen = createScreenModel({ cols: 100, rows: 30, readPrompt: readPromptState });
  const states: Record<string, PromptState> = {};
  for (const entry of entries) {
    if ('d' in entry) {
      screen.write(entry.d);
    } else {
      states[entry.mark] = (await screen.state()).promptState;
    }
  }
  screen.stop();
  return states;
}

describe('promptState from recorded claude screens', () => {
  it('tracks starting → ready(empty) → ready(text) → busy → ready, and a pasted draft', async () => {
    const states = await statesAtMarks('claude-2.1.197-session.jsonl');
    expect(states['start']).toEqual({ kind: 'ready', inputEmpty: true });
    expect(states['typed hi']).toEqual({ kind: 'ready', inputEmpty: false });
    expect(states['busy']).toEqual({ kind: 'busy' });
    expect(states['busy2']).toEqual({ kind: 'busy' });
    expect(states['done']).toEqual({ kind: 'ready', inputEmpty: true });
    expect(states['pasted']).toEqual({ kind: 'ready', inputEmpty: false });
    expect(states['after ctrl-u']).toEqual({ kind: 'ready', inputEmpty: false });
    expect(states['ctrl-c']).toEqual({ kind: 'ready', inputEmpty: true });
  });

  it('reports a permission dialog as dialog, then ready again', async () => {
    const states = await statesAtMarks('claude-2.1.197-dialog.jsonl');
    expect(states['start']).toEqual({ kind: 'ready', inputEmpty: true });
    expect(states['dialog']).toEqual({ kind: 'dialog' });
  });

  it('is starting before any box was drawn', async () => {
    const screen = createScreenModel({ cols: 80, rows: 24, readPrompt: readPromptState });
    screen.write('Loading…\r\n');
    expect((await screen.state()).promptState).toEqual({ kind: 'starting' });
    screen.stop();
  });
});
