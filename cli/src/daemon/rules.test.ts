// The daemon's removal of revoked rules with claude's real rule-file code in temp folders: exactly the
// named entries go and the person's own stay; an absent entry is fine (a runner got there first); a
// link or a file that is not JSON is left untouched with the reason; a folder the hub names that is
// not absolute and plain never reaches the file; the log hears counts, never an entry.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DaemonCommandSchemas } from '@tether/shared';
import { projectRuleFiles } from '../agents/index.ts';
import { tempDirPerTest } from '../testing/temp-dirs.ts';
import { rulesRemoveCommand, type RulesRemoved } from './rules.ts';

const dir = tempDirPerTest('daemon-rules');
const A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const SECRET = 'deploy --token s3cr3t';
let folders = 0;
/** A new folder inside this test's temp dir. */
function fresh(): string {
  const folder = join(dir(), `p${++folders}`);
  mkdirSync(folder);
  return folder;
}

function project(settings: unknown): { folder: string; file: string } {
  const folder = fresh();
  mkdirSync(join(folder, '.claude'));
  const file = join(folder, '.claude', 'settings.local.json');
  writeFileSync(file, typeof settings === 'string' ? settings : JSON.stringify(settings));
  return { folder, file };
}

function command() {
  const logged: RulesRemoved[] = [];
  const run = rulesRemoveCommand({ files: projectRuleFiles, onRemoved: (counts) => logged.push(counts) });
  const parse = (payload: unknown) => DaemonCommandSchemas['daemon:rules-remove'].parse(payload);
  return { logged, remove: (payload: unknown) => run(parse(payload)) };
}

describe('daemon:rules-remove', () => {
  it('takes out exactly the named entries and keeps the person’s own; an absent one is fine; the log counts', () => {
    const { folder, file } = project({ permissions: { allow: [`Bash(${SECRET})`, 'Bash(ls -la)', 'Read'], deny: ['Bash(rm:*)'] }, note: 'mine' });
    const { logged, remove } = command();
    const ack = remove({ folder, rules: [{ id: A, toolName: 'Bash', ruleContent: SECRET }, { id: B, toolName: 'Bash', ruleContent: 'npm test' }] });
    expect(ack).toEqual({ ok: true, rules: [{ id: A, outcome: 'removed', error: null }, { id: B, outcome: 'absent', error: null }] });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ permissions: { allow: ['Bash(ls -la)', 'Read'], deny: ['Bash(rm:*)'] }, note: 'mine' });
    expect(logged).toEqual([{ folder, removed: 1, absent: 1, failed: 0 }]);
    expect(JSON.stringify(logged)).not.toContain('s3cr3t');
    // Again (the runner removed it too, or the hub asked twice): nothing changes.
    expect(remove({ folder, rules: [{ id: A, toolName: 'Bash', ruleContent: SECRET }] })).toEqual({ ok: true, rules: [{ id: A, outcome: 'absent', error: null }] });
  });

  it('a folder with no rule file (or gone): nothing to remove, nothing made', () => {
    const folder = fresh();
    expect(command().remove({ folder, rules: [{ id: A, toolName: 'Bash', ruleContent: 'npm test' }] })).toEqual({ ok: true, rules: [{ id: A, outcome: 'absent', error: null }] });
    expect(command().remove({ folder: join(folder, 'gone'), rules: [{ id: A, toolName: 'Bash', ruleContent: 'npm test' }] })).toMatchObject({ rules: [{ outcome: 'absent' }] });
  });

  it('a file that is not valid JSON is left untouched, with the reason', () => {
    const broken = `{"permissions": {"allow": ["Bash(npm test)"],}`;
    const { folder, file } = project(broken);
    const { logged, remove } = command();
    expect(remove({ folder, rules: [{ id: A, toolName: 'Bash', ruleContent: 'npm test' }] })).toEqual({
      ok: true,
      rules: [{ id: A, outcome: 'failed', error: expect.stringMatching(/settings\.local\.json is not valid JSON .*left untouched: fix it; the entry is taken out when/) }],
    });
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(logged).toEqual([{ folder, removed: 0, absent: 0, failed: 1 }]);
  });

  it('refuses a .claude folder or a settings file that is a link: the file it points to is never touched', () => {
    const elsewhere = project({ permissions: { allow: ['Bash(npm test)'] } });
    const linkedDir = fresh();
    symlinkSync(join(elsewhere.folder, '.claude'), join(linkedDir, '.claude'));
    const linkedFile = fresh();
    mkdirSync(join(linkedFile, '.claude'));
    symlinkSync(elsewhere.file, join(linkedFile, '.claude', 'settings.local.json'));
    const rules = [{ id: A, toolName: 'Bash', ruleContent: 'npm test' }];
    expect(command().remove({ folder: linkedDir, rules })).toMatchObject({ rules: [{ outcome: 'failed', error: expect.stringMatching(/\.claude is a link/) }] });
    expect(command().remove({ folder: linkedFile, rules })).toMatchObject({ rules: [{ outcome: 'failed', error: expect.stringMatching(/settings\.local\.json is a link/) }] });
    expect(JSON.parse(readFileSync(elsewhere.file, 'utf8'))).toEqual({ permissions: { allow: ['Bash(npm test)'] } });
  });

  it('a folder that is relative, or climbs with .., is refused by the schema before any file is read', () => {
    const rules = [{ id: A, toolName: 'Bash', ruleContent: 'npm test' }];
    for (const folder of ['work/app', '/work/app/../../etc', '/work/./app', '']) {
      expect(DaemonCommandSchemas['daemon:rules-remove'].safeParse({ folder, rules }).success).toBe(false);
    }
    expect(DaemonCommandSchemas['daemon:rules-remove'].safeParse({ folder: '/work/app', rules: [] }).success).toBe(false);
  });
});
