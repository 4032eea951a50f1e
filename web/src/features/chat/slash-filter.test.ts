import { describe, expect, it } from 'vitest';
import type { SlashCommand } from '@tether/shared';
import { filterSlashCommands, slashCommandOf, slashQuery } from './slash-filter.ts';

const command = (name: string, description = ''): SlashCommand => ({ name, description, argumentHint: '', source: 'builtin', opensPicker: false });

describe('slash filter', () => {
  it('reads the query only while a command name is typed', () => {
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/Mo')).toBe('mo');
    expect(slashQuery('/model sonnet')).toBeNull();
    expect(slashQuery('hello /model')).toBeNull();
    expect(slashQuery('/tmp/path')).toBeNull();
    expect(slashCommandOf('/model sonnet')).toBe('model');
    expect(slashCommandOf('/model')).toBe('model');
    expect(slashCommandOf('not a command')).toBeNull();
  });

  it('lists names that start with the query, then names and descriptions that contain it', () => {
    const all = [command('compact', 'Free up context'), command('model', 'Switch model'), command('release', 'Cut a release'), command('memory', 'Edit memory files')];
    expect(filterSlashCommands(all, '').map((c) => c.name)).toEqual(['compact', 'model', 'release', 'memory']);
    expect(filterSlashCommands(all, 'me').map((c) => c.name)).toEqual(['memory']);
    expect(filterSlashCommands(all, 'mo').map((c) => c.name)).toEqual(['model', 'memory']);
    expect(filterSlashCommands(all, 'context').map((c) => c.name)).toEqual(['compact']);
  });
});
