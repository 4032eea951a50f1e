// resume-state.test.ts: what a resumed session goes on from, as saved and loaded back: the token
// usage travels with the offset; a usage this tether cannot read is dropped, never the whole state.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadResumeState, saveResumeState } from './resume-state.ts';
import { tempDirs } from '../../testing/temp-dirs.ts';

const ID = 'a1b2c3d4-0000-4000-8000-000000000001';
const home = tempDirs('resume');

describe('resume state', () => {
  it('keeps the token usage with the offset', () => {
    const at = home();
    const usage = { inputTokens: 5675, cachedInputTokens: 0, outputTokens: 44, contextTokens: 1980, contextWindow: null };
    saveResumeState({ home: at, agentSessionId: ID, state: { sessionId: 's1', transcriptPath: '/t.jsonl', offset: 1234, usage } });
    expect(loadResumeState({ home: at, agentSessionId: ID })).toEqual({ sessionId: 's1', transcriptPath: '/t.jsonl', offset: 1234, usage });
  });

  it("keeps an agent's own id's state (opencode's `ses_…`), and none for what is not an id", () => {
    const at = home();
    saveResumeState({ home: at, agentSessionId: 'ses_db4517537ffe3RxbKIQZWM7MZC', state: { sessionId: 's1', transcriptPath: '/t.jsonl', offset: 7 } });
    expect(loadResumeState({ home: at, agentSessionId: 'ses_db4517537ffe3RxbKIQZWM7MZC' })).toMatchObject({ sessionId: 's1', offset: 7 });
    saveResumeState({ home: at, agentSessionId: '../escape', state: { sessionId: 's1', transcriptPath: '/t.jsonl', offset: 7 } });
    expect(loadResumeState({ home: at, agentSessionId: '../escape' })).toBeNull();
  });

  it('reads a state saved before usage, or with a usage it refuses, as no usage', () => {
    const at = home();
    saveResumeState({ home: at, agentSessionId: ID, state: { sessionId: 's1', transcriptPath: '/t.jsonl', offset: 9 } });
    expect(loadResumeState({ home: at, agentSessionId: ID })).toMatchObject({ offset: 9, usage: null });
    writeFileSync(join(at, 'claude-sessions', `${ID}.json`), JSON.stringify({ sessionId: 's1', transcriptPath: '/t.jsonl', offset: 9, usage: { inputTokens: -1 } }));
    expect(loadResumeState({ home: at, agentSessionId: ID })).toMatchObject({ offset: 9, usage: null });
  });
});
