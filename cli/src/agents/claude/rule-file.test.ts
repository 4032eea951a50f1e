import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeRuleFile } from './rule-file.ts';

const rule = { toolName: 'Bash', ruleContent: 'npm test' };
let dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tether-rule-file-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe("claude's project rule file", () => {
  it("is claude's own localSettings update; a folder without the file is fine", () => {
    expect(claudeRuleFile.update(rule)).toEqual({ type: 'addRules', rules: [rule], behavior: 'allow', destination: 'localSettings' });
    expect(claudeRuleFile.writeProblem({ folder: folder() })).toBeNull();
  });

  it('refuses a .claude folder or a settings file that is a link', () => {
    const a = folder();
    const elsewhere = folder();
    symlinkSync(elsewhere, join(a, '.claude'));
    expect(claudeRuleFile.writeProblem({ folder: a })).toMatch(/\.claude is a link/);
    const b = folder();
    mkdirSync(join(b, '.claude'));
    writeFileSync(join(elsewhere, 'x.json'), '{}');
    symlinkSync(join(elsewhere, 'x.json'), join(b, '.claude', 'settings.local.json'));
    expect(claudeRuleFile.writeProblem({ folder: b })).toMatch(/settings\.local\.json is a link/);
    expect(claudeRuleFile.remove({ folder: b, rule })).toEqual({ error: expect.stringMatching(/is a link/) });
  });

  it('leaves a file that is not valid JSON untouched, and says so', () => {
    const a = folder();
    mkdirSync(join(a, '.claude'));
    const file = join(a, '.claude', 'settings.local.json');
    writeFileSync(file, '{"permissions": {"allow": ["Bash(npm test)"],}');
    expect(claudeRuleFile.writeProblem({ folder: a })).toMatch(/is not valid JSON .*left untouched/);
    expect(claudeRuleFile.remove({ folder: a, rule })).toEqual({ error: expect.stringMatching(/not valid JSON/) });
    expect(readFileSync(file, 'utf8')).toBe('{"permissions": {"allow": ["Bash(npm test)"],}');
    writeFileSync(file, '["a list"]');
    expect(claudeRuleFile.writeProblem({ folder: a })).toMatch(/not a JSON object/);
  });

  it('a removal takes out exactly that entry and keeps the rest of the file', () => {
    const a = folder();
    mkdirSync(join(a, '.claude'));
    const file = join(a, '.claude', 'settings.local.json');
    writeFileSync(file, JSON.stringify({ permissions: { allow: ['Bash(npm test)', 'Bash(npm test:*)', 'Read'], deny: ['Bash(rm:*)'] }, env: { A: '1' } }));
    expect(claudeRuleFile.holds({ folder: a, rule })).toBe(true);
    expect(claudeRuleFile.remove({ folder: a, rule })).toEqual({ removed: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ permissions: { allow: ['Bash(npm test:*)', 'Read'], deny: ['Bash(rm:*)'] }, env: { A: '1' } });
    expect(claudeRuleFile.holds({ folder: a, rule })).toBe(false);
    expect(claudeRuleFile.remove({ folder: a, rule })).toEqual({ removed: false });
  });
});
