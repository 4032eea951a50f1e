// verbs.test.ts: `tether --help` and every `tether <verb> --help` tell the same summary (both are
// read from the verb's own file), no verb file is left out of the table, and the help names the three
// agents tether runs, not claude alone.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from './command.ts';
import { VERBS } from './verbs.ts';
import { runTether as tether } from '../testing/run-tether.ts';

function isCommand(value: unknown): value is Command {
  const c = value as Partial<Command> | null;
  return typeof c?.name === 'string' && typeof c.summary === 'string' && typeof c.usage === 'string' && typeof c.run === 'function';
}

describe('the verb table', () => {
  it('holds every verb file of commands/, each under its own name', async () => {
    const dir = import.meta.dirname;
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const verbFiles: string[] = [];
    for (const file of files) {
      const module = (await import(join(dir, file))) as { default?: unknown };
      if (!isCommand(module.default)) continue;
      verbFiles.push(file);
      const { name } = module.default;
      expect(Object.keys(VERBS), `${file} exports verb "${name}"`).toContain(name);
      expect((await VERBS[name]!()).default, `${name} loads ${file}`).toBe(module.default);
    }
    expect(verbFiles.length).toBe(Object.keys(VERBS).length);
  });

  it('the long-lived verbs, and only they, start with the tuned environment (main.ts re-executes them)', async () => {
    const tuned: Record<string, unknown> = {};
    for (const [name, load] of Object.entries(VERBS)) {
      const { startEnv } = (await load()).default;
      if (startEnv) tuned[name] = startEnv;
    }
    expect(tuned).toEqual({ hub: 'server', daemon: 'server', attach: 'server', adopt: 'runner', claude: 'runner', codex: 'runner', gemini: 'runner', opencode: 'runner' });
  });

  it('tether --help lists each verb with the summary its own --help prints', async () => {
    const top = await tether('--help');
    expect(top.status).toBe(0);
    const listed = new Map(
      top.stdout
        .split('\n')
        .map((line) => line.match(/^ {2}(\S+) +(.+)$/))
        .filter((m) => m !== null)
        .map((m) => [m[1]!, m[2]!]),
    );
    expect([...listed.keys()]).toEqual(Object.keys(VERBS));
    for (const [name, summary] of listed) {
      const own = await tether(name, '--help');
      expect(own.status, `tether ${name} --help`).toBe(0);
      const parts = own.stdout.trimEnd().split('\n\n');
      expect(parts[0], `tether ${name} --help`).toMatch(new RegExp(`^usage: tether ${name}\\b`));
      expect(parts.at(-1), `tether ${name} --help`).toBe(summary);
    }
  });

  it('tether --help names the three agents: in its first line, and each with a verb of its own', async () => {
    const top = await tether('--help');
    expect(top.stdout.split('\n')[0]).toMatch(/^tether \S+: run Claude Code, Codex or Gemini CLI here, drive it from anywhere$/);
    const summary = (verb: string) => top.stdout.split('\n').find((line) => line.startsWith(`  ${verb} `)) ?? '';
    const named: Record<string, string> = {
      claude: 'run Claude Code in a PTY',
      codex: 'run Codex in a PTY',
      gemini: 'run Gemini CLI in a PTY',
      spawn: 'claude, Codex or Gemini CLI',
      doctor: 'claude, codex and gemini',
      hook: 'claude, Codex, Gemini CLI',
    };
    for (const [verb, words] of Object.entries(named)) expect(summary(verb), verb).toContain(words);
    // Run from this checkout: the usage names the command that works here.
    expect(top.stdout).toContain('\nusage: npm run tether -- <verb> [args]\n');
    const spawn = await tether('spawn', '--help');
    expect(spawn.stdout).toContain('[--agent claude|codex|gemini|opencode (default claude)]');
  });
});
