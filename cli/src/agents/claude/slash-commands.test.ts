// slash-commands.test.ts: the lists a PTY runner builds from claude's data and the disk, and the one
// a headless runner takes from claude's `initialize` answer.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSlashCommands, readFrontmatter, slashCommandsFromInitialize } from './slash-commands.ts';

let root: string;
let cwd: string;
let config: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tether-slash-'));
  cwd = join(root, 'project');
  config = join(root, 'config');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('slash commands', () => {
  it('reads frontmatter fields and the first line', () => {
    expect(readFrontmatter('---\ndescription: "Ship it"\nargument-hint: [version]\n---\n\n# Release\nbody')).toEqual({
      fields: { description: 'Ship it', 'argument-hint': '[version]' },
      firstLine: 'Release',
    });
    expect(readFrontmatter('Review the diff carefully.\nMore.')).toEqual({ fields: {}, firstLine: 'Review the diff carefully.' });
  });

  it('lists the project’s and the user’s commands and skills before claude’s built-ins, each name once', () => {
    write(join(cwd, '.claude/commands/release.md'), '---\ndescription: Cut a release and tag it\nargument-hint: <version>\n---\nDo $ARGUMENTS');
    write(join(cwd, '.claude/commands/frontend/lint.md'), 'Lint the web app');
    write(join(cwd, '.claude/commands/notes.txt'), 'not a command');
    write(join(cwd, '.claude/skills/deploy/SKILL.md'), '---\nname: deploy-staging\ndescription: Deploy to staging\n---\n');
    write(join(config, 'commands/release.md'), '---\ndescription: the user’s own release\n---\n');
    write(join(config, 'commands/standup.md'), '---\ndescription: Write my standup\n---\n');
    write(join(config, 'commands/model.md'), '---\ndescription: shadows the built-in\n---\n');
    const list = listSlashCommands({ version: '2.1.331', configDir: config, cwd });
    const byName = new Map(list.map((c) => [c.name, c]));
    expect(byName.get('release')).toEqual({ name: 'release', description: 'Cut a release and tag it', argumentHint: '<version>', source: 'project', opensPicker: false });
    expect(byName.get('frontend:lint')).toMatchObject({ description: 'Lint the web app', source: 'project' });
    expect(byName.get('deploy-staging')).toMatchObject({ description: 'Deploy to staging', source: 'project' });
    expect(byName.get('standup')).toMatchObject({ source: 'user' });
    expect(byName.has('notes')).toBe(false);
    expect(list.filter((c) => c.name === 'release')).toHaveLength(1);
    expect(byName.get('model')).toMatchObject({ source: 'user' });
    expect(byName.get('resume')).toMatchObject({ source: 'builtin', description: 'Resume a previous session' });
    expect(byName.get('config')).toMatchObject({ source: 'builtin', description: 'Open settings' });
    expect(list.findIndex((c) => c.source === 'builtin')).toBeGreaterThan(list.findIndex((c) => c.name === 'standup'));
  });

  it('takes the built-ins of the newest known version not after the running one', () => {
    const names = (version: string | null) => listSlashCommands({ version, configDir: config, cwd }).map((c) => c.name);
    expect(names('2.1.197')).toContain('agents');
    expect(names('2.1.200')).toContain('agents');
    expect(names('2.1.331')).not.toContain('agents');
    expect(names('2.2.0')).toEqual(names('2.1.331'));
    expect(names('1.0.0')).toEqual(names('2.1.197'));
    expect(names(null)).toEqual(names('2.1.331'));
  });

  it('keeps what claude answered to initialize, and drops what no command could be', () => {
    expect(
      slashCommandsFromInitialize([
        { name: 'debug', description: 'Enable debug logging', argumentHint: '[issue description]', builtin: true },
        { name: 'release', description: 'Cut a release (project)', argumentHint: '' },
        { name: 'has space' },
        'junk',
      ]),
    ).toEqual([
      { name: 'debug', description: 'Enable debug logging', argumentHint: '[issue description]', source: 'builtin', opensPicker: false },
      { name: 'release', description: 'Cut a release (project)', argumentHint: '', source: 'claude', opensPicker: false },
    ]);
    expect(slashCommandsFromInitialize(undefined)).toEqual([]);
  });
});
