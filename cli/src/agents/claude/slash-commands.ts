// slash-commands.ts: what a session's claude takes after `/`, for the phone's composer
// (shared/src/slash-commands.ts). A PTY session's list is claude's built-ins for its version
// (claude/builtin-commands.ts) plus the custom commands and skills claude itself loads from disk:
//
//   <claude config>/commands/**/*.md   user     (~/.claude, or CLAUDE_CONFIG_DIR)
//   <cwd>/.claude/commands/**/*.md     project  (a sub-folder makes `folder:name`)
//   <claude config>/skills/*/SKILL.md  user
//   <cwd>/.claude/skills/*/SKILL.md    project
//
// A command's description is its frontmatter `description:` (else its first line, as claude does),
// `argument-hint:` its hint. Plugins' commands are not read from disk here (headless sessions get
// them from claude itself). A headless session's list is what claude answered to `initialize`.
// Invariant: reading never throws and never follows more than MAX_FILES files or reads more than
// MAX_FILE_BYTES of one; a missing or unreadable folder is an empty list.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MAX_SLASH_COMMANDS, SlashCommandSchema, type SlashCommand, type SlashCommandSource } from '@tether/shared';
import { builtinSlashCommands } from './builtin-commands.ts';

/** Files looked at per folder: a project with more commands than this is not the common case. */
const MAX_FILES = 200;
/** Only the frontmatter and first line matter; a huge command file is not read whole. */
const MAX_FILE_BYTES = 64 * 1024;
/** Nesting of command sub-folders followed. */
const MAX_DEPTH = 4;

/** `---\nkey: value\n---` at the top of a markdown file, and the first line of text after it. */
export function readFrontmatter(text: string): { fields: Record<string, string>; firstLine: string } {
  const fields: Record<string, string> = {};
  let body = text;
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (match) {
    body = text.slice(match[0].length);
    for (const line of match[1]!.split(/\r?\n/)) {
      const kv = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
      if (kv) fields[kv[1]!.toLowerCase()] = kv[2]!.trim().replace(/^(['"])(.*)\1$/, '$2');
    }
  }
  const firstLine = body.split(/\r?\n/).find((line) => line.trim() !== '')?.trim().replace(/^#+\s*/, '') ?? '';
  return { fields, firstLine };
}

function readHead(path: string): string | null {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile()) return null;
    const text = readFileSync(path, 'utf8');
    return text.length > MAX_FILE_BYTES ? text.slice(0, MAX_FILE_BYTES) : text;
  } catch {
    return null;
  }
}

function listDir(dir: string): Array<{ name: string; dir: boolean }> {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((entry) => ({ name: entry.name, dir: entry.isDirectory() }));
  } catch {
    return [];
  }
}

/** One command as the schema takes it, or null when its name would not be one claude takes. */
function command(options: { name: string; description: string; argumentHint?: string; source: SlashCommandSource; opensPicker?: boolean }): SlashCommand | null {
  const parsed = SlashCommandSchema.safeParse({
    name: options.name,
    description: options.description.slice(0, 500),
    argumentHint: (options.argumentHint ?? '').slice(0, 200),
    source: options.source,
    opensPicker: options.opensPicker ?? false,
  });
  return parsed.success ? parsed.data : null;
}

/** `<dir>/**\/*.md` → commands named by their path (`a/b.md` → `a:b`). */
export function scanCommandFolder(dir: string, source: SlashCommandSource): SlashCommand[] {
  const found: SlashCommand[] = [];
  const walk = (folder: string, depth: number) => {
    for (const entry of listDir(folder)) {
      if (found.length >= MAX_FILES) return;
      const path = join(folder, entry.name);
      if (entry.dir) {
        if (depth < MAX_DEPTH && !entry.name.startsWith('.')) walk(path, depth + 1);
        continue;
      }
      if (!entry.name.endsWith('.md')) continue;
      const text = readHead(path);
      if (text === null) continue;
      const { fields, firstLine } = readFrontmatter(text);
      const name = relative(dir, path).replace(/\.md$/, '').split(/[\\/]/).join(':');
      const made = command({ name, description: fields.description ?? firstLine, argumentHint: fields['argument-hint'], source });
      if (made) found.push(made);
    }
  };
  walk(dir, 0);
  return found;
}

/** `<dir>/<skill>/SKILL.md` → one command per skill (its frontmatter `name`, else its folder). */
export function scanSkillFolder(dir: string, source: SlashCommandSource): SlashCommand[] {
  const found: SlashCommand[] = [];
  for (const entry of listDir(dir)) {
    if (found.length >= MAX_FILES) break;
    if (!entry.dir) continue;
    const text = readHead(join(dir, entry.name, 'SKILL.md'));
    if (text === null) continue;
    const { fields, firstLine } = readFrontmatter(text);
    const made = command({ name: fields.name || entry.name, description: fields.description ?? firstLine, argumentHint: fields['argument-hint'], source });
    if (made) found.push(made);
  }
  return found;
}

/** The PTY session's list: the project's and the user's own first (a name claude finds twice is
 *  listed once, the project's winning), then claude's built-ins. */
export function listSlashCommands(options: { version: string | null; configDir: string; cwd: string }): SlashCommand[] {
  const project = join(options.cwd, '.claude');
  const custom = [
    ...scanCommandFolder(join(project, 'commands'), 'project'),
    ...scanSkillFolder(join(project, 'skills'), 'project'),
    ...scanCommandFolder(join(options.configDir, 'commands'), 'user'),
    ...scanSkillFolder(join(options.configDir, 'skills'), 'user'),
  ];
  const builtins = builtinSlashCommands(options.version).flatMap((b) => command({ ...b, source: 'builtin' }) ?? []);
  const seen = new Set<string>();
  const list: SlashCommand[] = [];
  for (const item of [...custom, ...builtins]) {
    if (seen.has(item.name)) continue;
    seen.add(item.name);
    list.push(item);
  }
  return list.slice(0, MAX_SLASH_COMMANDS);
}

/** A headless session's list: claude's own answer to stream-json `initialize` (`commands`). */
export function slashCommandsFromInitialize(commands: unknown): SlashCommand[] {
  if (!Array.isArray(commands)) return [];
  const list: SlashCommand[] = [];
  for (const item of commands) {
    if (!item || typeof item !== 'object') continue;
    const c = item as { name?: unknown; description?: unknown; argumentHint?: unknown; builtin?: unknown };
    if (typeof c.name !== 'string') continue;
    const made = command({
      name: c.name.replace(/^\//, ''),
      description: typeof c.description === 'string' ? c.description : '',
      argumentHint: typeof c.argumentHint === 'string' ? c.argumentHint : '',
      source: c.builtin === true ? 'builtin' : 'claude',
    });
    if (made) list.push(made);
  }
  return list.slice(0, MAX_SLASH_COMMANDS);
}
