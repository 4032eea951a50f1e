import { describe, expect, it } from 'vitest';
import { sessionCommands, type LaunchCommands } from './commands.ts';
import { createEditedFiles } from '../../file-edits/edited-note.ts';

function setup(launch: Partial<LaunchCommands> = {}) {
  const calls: string[] = [];
  const edited = createEditedFiles();
  const core = {
    edited,
    controller: { set: (who: string) => calls.push(`controller:${who}`) },
    stopAsked: (why: string) => calls.push(`stopAsked:${why}`),
    requests: { answered: ({ requestId }: { requestId: string }) => (calls.push(`answered:${requestId}`), true) },
  };
  const handlers = sessionCommands(core as never, {
    deliver: (d) => calls.push(`deliver:${d.promptId}`, `text:${d.text}`),
    abort: () => calls.push('abort'),
    closePrompts: (why) => calls.push(`closePrompts:${why}`),
    end: () => calls.push('end'),
    ...launch,
  });
  return { handlers, calls, edited };
}

describe('the hub command table every launch kind shares (session/commands.ts)', () => {
  it('marks prompts and answers as remote, and routes an answer to the registry by its id', () => {
    const { handlers, calls } = setup();
    handlers['prompt:deliver']!({ sessionId: 's', promptId: 'p1', text: 'hi', attachments: [] });
    handlers['approval:answered']!({ sessionId: 's', requestId: 'r1', answer: { decision: 'allow' } });
    expect(calls).toEqual(['controller:remote', 'deliver:p1', 'text:hi', 'controller:remote', 'answered:r1']);
  });

  it("names the files a person saved from the phone in the next prompt only, and never in a slash command", () => {
    const { handlers, calls, edited } = setup();
    edited.add('src/a.ts');
    edited.add('README.md');
    handlers['prompt:deliver']!({ sessionId: 's', promptId: 'p1', text: '/compact', attachments: [] });
    handlers['prompt:deliver']!({ sessionId: 's', promptId: 'p2', text: 'go on', attachments: [] });
    handlers['prompt:deliver']!({ sessionId: 's', promptId: 'p3', text: 'and then', attachments: [] });
    expect(calls.filter((c) => c.startsWith('text:'))).toEqual([
      'text:/compact',
      'text:(tether: I edited these files myself since your last turn, read them before you change them: src/a.ts, README.md) go on',
      'text:and then',
    ]);
  });

  it('ends a session in one order: prompts closed, the stop said to the scope, then the agent ended', () => {
    const { handlers, calls } = setup();
    handlers['session:stop']!({ sessionId: 's' });
    expect(calls).toEqual(['closePrompts:the session was ended', 'stopAsked:the session was ended', 'end']);
  });

  it("stops in the agent's pool only an attached session asked to (stopInPool), else ends as its kind does", () => {
    const pool: string[] = [];
    const attached = setup({ stopInPool: () => pool.push('stopInPool'), end: () => pool.push('end') });
    attached.handlers['session:stop']!({ sessionId: 's', stopInPool: true });
    attached.handlers['session:stop']!({ sessionId: 's' });
    expect(pool).toEqual(['stopInPool', 'end']);
    // A kind without a pool (a session tether started) ends as it always does: the hub refuses that ask first.
    const started = setup();
    started.handlers['session:stop']!({ sessionId: 's', stopInPool: true });
    expect(started.calls.at(-1)).toBe('end');
  });

  it('handles model, mode and effort only where the launch kind fills them in, and adds its own commands', () => {
    const bare = setup().handlers;
    expect([bare['session:set-model'], bare['session:set-mode'], bare['session:set-effort']]).toEqual([undefined, undefined, undefined]);
    const seen: string[] = [];
    const full = setup({ setModel: (m) => seen.push(`model:${m}`), setEffort: (l) => seen.push(`effort:${l}`), more: { 'terminal:viewers': ({ count }) => seen.push(`viewers:${count}`) } }).handlers;
    full['session:set-model']!({ sessionId: 's', model: 'opus' });
    full['session:set-effort']!({ sessionId: 's', level: 'high' });
    full['terminal:viewers']!({ sessionId: 's', count: 2 });
    expect(full['session:set-mode']).toBeUndefined();
    expect(seen).toEqual(['model:opus', 'effort:high', 'viewers:2']);
  });
});
