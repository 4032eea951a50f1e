// command.test.ts: the flag reader every verb uses: the forms it takes, and a clear one-line error
// (CommandError) for each way a flag can be wrong.
import { describe, expect, it } from 'vitest';
import { CommandError, parseFlags } from './command.ts';

const read = (...args: string[]) => parseFlags({ args, booleans: ['json', 'session-wide'], strings: ['reason', 'choice'] });

function failure(...args: string[]): string {
  try {
    read(...args);
  } catch (error) {
    expect(error).toBeInstanceOf(CommandError);
    return (error as CommandError).message;
  }
  throw new Error(`parsed without an error: ${args.join(' ')}`);
}

describe('parseFlags', () => {
  it('reads booleans, "--name value" and "--name=value"; everything else is a positional, in order', () => {
    expect(read('abc', '--json', '--reason', 'not now', 'allow', '--choice=2', '--session-wide')).toEqual({
      flags: { json: true, reason: 'not now', choice: '2', 'session-wide': true },
      positionals: ['abc', 'allow'],
    });
    expect(read()).toEqual({ flags: {}, positionals: [] });
  });

  it('a lone "-" is a positional (stdin); after "--" everything is, flags included', () => {
    expect(read('id', '-', '--', '--json', '-x')).toEqual({ flags: {}, positionals: ['id', '-', '--json', '-x'] });
  });

  it('a string flag takes the next argument whatever it starts with', () => {
    expect(read('--reason', '-1').flags).toEqual({ reason: '-1' });
    expect(read('--reason', '--json').flags).toEqual({ reason: '--json' });
  });

  it('refuses a flag it does not know, long or short, naming it', () => {
    expect(failure('--nope')).toBe('unknown flag --nope');
    expect(failure('a', '--jsn')).toBe('unknown flag --jsn');
    expect(failure('-x')).toBe('unknown flag -x (a word starting with "-" goes after --)');
  });

  it('refuses a value on a boolean and a string flag without one', () => {
    expect(failure('--json=yes')).toBe('--json takes no value');
    expect(failure('--reason')).toBe('--reason needs a value');
    expect(failure('allow', '--choice')).toBe('--choice needs a value');
  });
});
