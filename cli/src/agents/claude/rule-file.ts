// rule-file.ts: claude's project rule file, `<folder>/.claude/settings.local.json` (its
// `localSettings`), as tether touches it for a rule the person accepted (shared project-rules.ts).
// claude writes the rule itself (the PermissionRequest answer's `updatedPermissions`); tether only
// checks the file first, confirms the entry afterwards, and removes exactly that entry on a revoke.
//
// Invariants: never through a link (`.claude/` or the file), never a file that is not a JSON object
// (left untouched, the reason said), and a removal takes out only the entries equal to the rule.
import { lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectRuleFile, ProjectRuleRef } from '../agent.ts';

const DIR = '.claude';
const FILE = 'settings.local.json';

/** claude's own spelling of a rule in `permissions.allow`. */
const entryOf = (rule: ProjectRuleRef) => `${rule.toolName}(${rule.ruleContent})`;

type Read = { problem: string } | { settings: Record<string, unknown> | null; path: string };

function kindOf(path: string): 'none' | 'link' | 'dir' | 'file' | 'other' {
  try {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return 'link';
    return stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other';
  } catch {
    return 'none';
  }
}

/** What the person does about a file tether left untouched, for a write and for a removal. */
const AFTER_FIX = { write: 'fix it, then allow the call again', remove: 'fix it; the entry is taken out when a session or the daemon there next connects' } as const;

/** The file's settings (null: no file yet), or why tether will not touch it. */
function readRuleFile(folder: string, purpose: keyof typeof AFTER_FIX = 'write'): Read {
  const dir = join(folder, DIR);
  const path = join(dir, FILE);
  const dirKind = kindOf(dir);
  if (dirKind === 'link') return { problem: `${dir} is a link: tether writes no rule through a link` };
  if (dirKind === 'none') return { settings: null, path };
  if (dirKind !== 'dir') return { problem: `${dir} is not a folder` };
  const fileKind = kindOf(path);
  if (fileKind === 'link') return { problem: `${path} is a link: tether writes no rule through a link` };
  if (fileKind === 'none') return { settings: null, path };
  if (fileKind !== 'file') return { problem: `${path} is not a file` };
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { settings: parsed as Record<string, unknown>, path };
    return { problem: `${path} is not a JSON object; left untouched: ${AFTER_FIX[purpose]}` };
  } catch (error) {
    return { problem: `${path} is not valid JSON (${error instanceof Error ? error.message : 'unreadable'}); left untouched: ${AFTER_FIX[purpose]}` };
  }
}

function allowList(settings: Record<string, unknown> | null): unknown[] {
  const permissions = settings?.permissions;
  if (!permissions || typeof permissions !== 'object') return [];
  const allow = (permissions as Record<string, unknown>).allow;
  return Array.isArray(allow) ? allow : [];
}

/** claude watches its settings files (chokidar) and takes a change once the file was still for a
 *  while: 1 s polled every 0.5 s in 2.1.332, 0.5 s polled every 0.2 s in 2.1.197 (their bundles);
 *  a little margin on top. */
const CLAUDE_SEES_CHANGE_MS = 2_500;

/** From this claude on, a running claude stops allowing a rule once its entry left the file (e2e).
 *  claude 2.1.197 reads the file again too, but keeps a rule a hook answer gave it until it restarts:
 *  a revoke reaches it at its next start (plain claude, a resume); the e2e checks both. */
export const CLAUDE_LIVE_REVOKE_FROM = '2.1.332';

export const claudeRuleFile: ProjectRuleFile = {
  seenWithinMs: CLAUDE_SEES_CHANGE_MS,
  writeProblem: ({ folder }) => {
    const read = readRuleFile(folder);
    return 'problem' in read ? read.problem : null;
  },
  update: (rule) => ({ type: 'addRules', rules: [{ toolName: rule.toolName, ruleContent: rule.ruleContent }], behavior: 'allow', destination: 'localSettings' }),
  holds: ({ folder, rule }) => {
    const read = readRuleFile(folder);
    return !('problem' in read) && allowList(read.settings).includes(entryOf(rule));
  },
  remove: ({ folder, rule }) => {
    const read = readRuleFile(folder, 'remove');
    if ('problem' in read) return { error: read.problem };
    const allow = allowList(read.settings);
    const entry = entryOf(rule);
    if (!read.settings || !allow.includes(entry)) return { removed: false };
    const permissions = read.settings.permissions as Record<string, unknown>;
    const next = { ...read.settings, permissions: { ...permissions, allow: allow.filter((item) => item !== entry) } };
    // Beside it, then renamed over it: claude never reads half a file.
    // `wx`: a name planted there (a link) fails the write rather than being followed.
    const temp = `${read.path}.tether-${process.pid}`;
    try {
      writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { flag: 'wx' });
      renameSync(temp, read.path);
    } catch (error) {
      return { error: `could not rewrite ${read.path}: ${error instanceof Error ? error.message : 'failed'}` };
    }
    return { removed: true };
  },
};
