// npm-run-tether.test.ts: `npm run tether -- <verb>`, a checkout's `tether` (scripts/tether.mjs), run
// as a person would from a project folder with nothing but Node and npm on PATH (no Bun: bootstrap
// finds the checkout's .tools/ copy), and `npm --prefix <checkout>` to name the checkout.
//
//   npm --prefix <checkout> run tether -- claude   (in <project>, TETHER_CLAUDE_BIN = a fake claude
//   that writes down where it ran and with what environment, then exits)
//     ─► the agent runs in <project> (npm runs scripts in the checkout; INIT_CWD says where it was
//        started), with the person's PATH (not npm's node_modules/.bin folders: the checkout's claude,
//        tsc, vitest), none of npm's variables (its allow-scripts list would break the agent's own
//        npm install), and not the project's .env or bunfig.toml (preload scripts) read by tether's Bun.
// The script used to be `bun cli/src/main.ts`: "bun: not found" without Bun on PATH, and in the checkout.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeScriptEnv, REPO_ROOT } from '../harness/node-scripts.ts';

let dir: string;
let project: string;
let personPath: string;

/** A claude stand-in: answers --version, else writes its cwd and environment next to FAKE_OUT. */
function writeFakeClaude(file: string): void {
  writeFileSync(
    file,
    ['#!/bin/sh', 'if [ "$1" = "--version" ]; then echo "2.1.332 (Claude Code)"; exit 0; fi', 'pwd > "$FAKE_OUT.cwd"', 'env > "$FAKE_OUT.env"', 'exit 0', ''].join('\n'),
  );
  chmodSync(file, 0o755);
}

function npmRunTether(args: string[], extra: Record<string, string> = {}) {
  const env: Record<string, string> = { HOME: join(dir, 'home'), PATH: personPath, TETHER_HOME: join(dir, 'tether-home'), NPM_CONFIG_USERCONFIG: join(dir, 'npmrc'), ...extra };
  return spawnSync('npm', ['--prefix', REPO_ROOT, 'run', 'tether', '--', ...args], { cwd: project, env, encoding: 'utf8', timeout: 60_000 });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tether-npm-run-'));
  project = join(dir, 'project');
  mkdirSync(project);
  mkdirSync(join(dir, 'home'));
  // The person's npm config lists install scripts it allows, as npm 11 suggests: npm exports it to
  // the script as npm_config_allow_scripts.
  writeFileSync(join(dir, 'npmrc'), 'allow-scripts=tiny\n');
  // A project of the person's own: a .env and a bunfig.toml whose preload would leave a mark.
  writeFileSync(join(project, '.env'), 'FROM_PROJECT_DOTENV=1\n');
  writeFileSync(join(project, 'preload.ts'), `require('fs').writeFileSync(${JSON.stringify(join(dir, 'preloaded'))}, '');\n`);
  writeFileSync(join(project, 'bunfig.toml'), 'preload = ["./preload.ts"]\n');
  writeFakeClaude(join(dir, 'fake-claude'));
  // Only the folders of the real Node (npm sits beside it) and the system's: no Bun.
  const node = spawnSync('sh', ['-c', 'command -v node'], { env: nodeScriptEnv(), encoding: 'utf8' }).stdout.trim();
  personPath = [...new Set([dirname(node), '/usr/bin', '/bin'])].join(':');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run tether in a checkout', () => {
  it('needs no Bun on PATH', () => {
    expect(spawnSync('sh', ['-c', 'command -v bun'], { env: { PATH: personPath } }).status).not.toBe(0);
    const run = npmRunTether(['--version']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^tether \d+\.\d+\.\d+ \(commit \S+, source checkout\)$/m);
  });

  it('runs the agent in the folder npm was started in, with the environment npm was started with', () => {
    const out = join(dir, 'fake');
    const run = npmRunTether(['claude'], { TETHER_CLAUDE_BIN: join(dir, 'fake-claude'), FAKE_OUT: out });
    // The fake exits before drawing a prompt, which the runner reports; what counts is how it ran.
    expect(existsSync(`${out}.cwd`), `${run.stdout}\n${run.stderr}`).toBe(true);
    expect(readFileSync(`${out}.cwd`, 'utf8').trim()).toBe(project);
    const env = new Map(
      readFileSync(`${out}.env`, 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(env.get('PATH')).toBe(personPath);
    expect([...env.keys()].filter((key) => /^npm_|^INIT_CWD$|^NODE$/.test(key))).toEqual([]);
    expect(env.get('FROM_PROJECT_DOTENV')).toBeUndefined();
    expect(existsSync(join(dir, 'preloaded'))).toBe(false);
    // The person's own settings pass.
    expect(env.get('NPM_CONFIG_USERCONFIG')).toBe(join(dir, 'npmrc'));
    expect(env.get('HOME')).toBe(join(dir, 'home'));
  });
});
