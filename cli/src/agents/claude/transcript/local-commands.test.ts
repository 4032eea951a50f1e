import { describe, expect, it } from 'vitest';
import { createLocalCommandReader, modelSetBy } from './local-commands.ts';

const command = (uuid: string, name: string, args: string, type: 'user' | 'system' = 'system') => {
  const content = `<command-name>${name}</command-name>\n            <command-message>${name.slice(1)}</command-message>\n            <command-args>${args}</command-args>`;
  return JSON.stringify(type === 'system' ? { type, subtype: 'local_command', uuid, content } : { type, uuid, message: { role: 'user', content } });
};
const output = (parentUuid: string, text: string, type: 'user' | 'system' = 'user') => {
  const content = `<local-command-stdout>${text}</local-command-stdout>`;
  return JSON.stringify(type === 'system' ? { type, subtype: 'local_command', parentUuid, uuid: `${parentUuid}-out`, content } : { type, parentUuid, uuid: `${parentUuid}-out`, message: { role: 'user', content } });
};

describe('local commands from the transcript', () => {
  it('pairs a command with its output, across batches and line shapes (2.1.197 user lines, 2.1.33x system lines)', () => {
    const reader = createLocalCommandReader();
    expect(reader.take([command('a', '/model', 'sonnet', 'user')])).toEqual([]);
    expect(reader.take([JSON.stringify({ type: 'assistant', uuid: 'x' }), output('a', 'Set model to `Sonnet 5.5` and saved as your default for new sessions')])).toEqual([
      { name: '/model', args: 'sonnet', output: 'Set model to `Sonnet 5.5` and saved as your default for new sessions' },
    ]);
    expect(reader.take([command('b', 'model', 'sonnet'), output('b', 'Kept model as `Opus 5.5 (default)`', 'system')])).toEqual([
      { name: '/model', args: 'sonnet', output: 'Kept model as `Opus 5.5 (default)`' },
    ]);
    // An output is taken once; one with no command before it is nobody's.
    expect(reader.take([output('b', 'again'), output('zzz', 'orphan'), 'not json {'])).toEqual([]);
  });

  it('reads a model change only where claude names the model asked for', () => {
    const run = (args: string, text: string) => ({ name: '/model', args, output: text });
    expect(modelSetBy(run('sonnet', 'Set model to `Sonnet 5.5` and saved as your default'))).toBe('sonnet');
    expect(modelSetBy(run('claude-haiku-4-5', 'Set model to `Haiku 4.5`'))).toBe('claude-haiku-4-5');
    expect(modelSetBy(run('sonnet', 'Set model to \u001b[1mSonnet 4.6\u001b[22m'))).toBe('sonnet');
    expect(modelSetBy(run('sonnet', 'Kept model as \u001b[1mOpus 4.6\u001b[22m'))).toBeNull();
    expect(modelSetBy(run('sonnet', 'Kept model as `Opus 5.5 (default)`'))).toBeNull();
    expect(modelSetBy(run('', 'Set model to `Haiku 4.5`'))).toBeNull();
    expect(modelSetBy({ name: '/effort', args: 'low', output: 'Set effort to `low`' })).toBeNull();
  });
});
