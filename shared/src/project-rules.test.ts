import { describe, expect, it } from 'vitest';
import { prefixChoices, proposalProblem, ruleCaveat, ruleContentFor, ruleCovers } from './project-rules.ts';

const folder = '/home/me/app';
const problem = (command: string, toolName = 'Bash') => proposalProblem({ toolName, command, folder });

describe('what may become a rule', () => {
  it('a simple command inside the folder may', () => {
    for (const command of ['npm test', 'touch ran.txt', './scripts/check.sh --fast', 'cat /home/me/app/src/a.ts', 'ls src/../lib', 'node --out=dist/x.js']) expect(problem(command), command).toBeNull();
  });

  it('a call outside the project folder never does', () => {
    for (const command of ['rm /etc/passwd', 'cat ../other/secret', 'ls /home/me/application', 'cp a.txt --target=/tmp/x', 'ls src/../../x']) {
      expect(problem(command), command).toMatch(/outside the project folder/);
    }
  });

  it('shell operators, quotes, wildcards, substitutions and ~ never do (the rule would allow more than the call)', () => {
    for (const command of ['npm test && rm -rf x', 'ls *', 'echo $(id)', 'git commit -m "x"', 'cat ~/.ssh/id', 'a | b', 'a; b', 'echo `id`', 'a\nb', 'ls > out']) {
      expect(problem(command), command).toMatch(/never a rule/);
    }
  });

  it('only Bash, never empty or padded, never too long', () => {
    expect(problem('x', 'Write')).toMatch(/only a Bash command/);
    expect(problem(' npm test')).toMatch(/space around/);
    expect(problem('')).toMatch(/empty/);
    expect(problem(`echo ${'a'.repeat(600)}`)).toMatch(/too long/);
  });
});

describe('rules and what they cover', () => {
  it('the prefixes a person may pick are leading words, never the whole command nor nothing', () => {
    expect(prefixChoices('npm run test -- --watch')).toEqual(['npm', 'npm run', 'npm run test', 'npm run test --']);
    expect(prefixChoices('make')).toEqual([]);
    expect(ruleContentFor({ command: 'npm run test' })).toBe('npm run test');
    expect(ruleContentFor({ command: 'npm run test', prefix: 'npm run' })).toBe('npm run:*');
    expect(ruleContentFor({ command: 'npm run test', prefix: 'npm ru' })).toBeNull();
    expect(ruleContentFor({ command: 'npm run test', prefix: '*' })).toBeNull();
    expect(ruleContentFor({ command: 'npm run test', prefix: 'npm run test' })).toBeNull();
  });

  it('an exact rule covers that string only; a prefix rule the prefix and what follows a space', () => {
    expect(ruleCovers({ ruleContent: 'npm test', command: 'npm test' })).toBe(true);
    expect(ruleCovers({ ruleContent: 'npm test', command: 'npm test --watch' })).toBe(false);
    expect(ruleCovers({ ruleContent: 'npm run:*', command: 'npm run build' })).toBe(true);
    expect(ruleCovers({ ruleContent: 'npm run:*', command: 'npm run' })).toBe(true);
    expect(ruleCovers({ ruleContent: 'npm run:*', command: 'npm runner' })).toBe(false);
  });

  it('says what a rule really allows: a script runner runs what the project files say, which the agent can edit', () => {
    expect(ruleCaveat({ ruleContent: 'npm test', folder })).toMatch(/exactly `npm test` in \/home\/me\/app .*package\.json.*agent can edit/);
    expect(ruleCaveat({ ruleContent: 'make:*', folder })).toMatch(/`make` with any arguments.*Makefile/);
    expect(ruleCaveat({ ruleContent: 'touch ran.txt', folder })).not.toMatch(/agent can edit/);
  });
});
