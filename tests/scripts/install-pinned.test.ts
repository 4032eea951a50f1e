// install-pinned.test.ts: scripts/bootstrap.mjs installPinned, the nested `npm install --prefix` that
// puts Bun and the pinned agents into .tools/, run by real npm, fully offline: a tiny package (a bin
// and a postinstall) packed into a tarball in a temp folder.
//
//   npm_config_allow_scripts (npm 11 exports a person's `npm config set allow-scripts=…` to every
//   script) ─► the nested install refused it with EALLOWSCRIPTS and `npm test` failed outright;
//   npm_config_global ─► the package landed in <prefix>/lib/node_modules. Both are dropped now
//   (scripts/npm-env.mjs), and the step prints one line; a failing one prints npm's output in full.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeScriptEnv, SCRIPTS } from '../harness/node-scripts.ts';

const BOOTSTRAP = join(SCRIPTS, 'bootstrap.mjs');

let dir: string;
let tarball: string;

/** A package with a bin and an install script, packed as npm packs one (a `package/` folder). */
function packTiny(into: string): string {
  const pkg = join(into, 'src', 'package');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'tiny', version: '1.0.0', bin: { tiny: 'bin.js' }, scripts: { postinstall: "node -e \"require('fs').writeFileSync('postinstall-ran', '')\"" } }),
  );
  writeFileSync(join(pkg, 'bin.js'), '#!/usr/bin/env node\nconsole.log("tiny 1.0.0");\n');
  chmodSync(join(pkg, 'bin.js'), 0o755);
  const file = join(into, 'tiny-1.0.0.tgz');
  const tar = spawnSync('tar', ['-czf', file, '-C', join(into, 'src'), 'package']);
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);
  return file;
}

/** installPinned as bootstrap.mjs runs it (under Node), with `env` as npm would hand it to a script. */
function installPinned(options: { prefix: string; spec: string; env: Record<string, string> }) {
  const call = { what: 'installing tiny', prefix: options.prefix, spec: options.spec, allowScripts: ['tiny@1.0.0'] };
  const script = `import { installPinned } from ${JSON.stringify(BOOTSTRAP)}; installPinned(JSON.parse(process.argv[1]));`;
  return spawnSync('node', ['--input-type=module', '-e', script, JSON.stringify(call)], {
    encoding: 'utf8',
    timeout: 60_000,
    // Offline (the tarball is local), and no npmrc of the machine's person in the way.
    env: nodeScriptEnv({ npm_config_offline: 'true', npm_config_update_notifier: 'false', NPM_CONFIG_USERCONFIG: join(dir, 'npmrc'), ...options.env }),
  });
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tether-install-pinned-'));
  writeFileSync(join(dir, 'npmrc'), '');
  tarball = packTiny(dir);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('installPinned (the .tools/ installs of bootstrap.mjs)', () => {
  const cases: Array<{ name: string; env: Record<string, string> }> = [
    { name: 'allow-scripts exported by npm (npm config set allow-scripts=… --location=user)', env: { npm_config_allow_scripts: 'tiny' } },
    { name: 'allow-scripts in the shell (NPM_CONFIG_ALLOW_SCRIPTS)', env: { NPM_CONFIG_ALLOW_SCRIPTS: 'tiny' } },
    { name: 'a global npm run (npm_config_global, npm_config_location)', env: { npm_config_global: 'true', npm_config_location: 'global' } },
  ];
  for (const c of cases) {
    it(`installs into its prefix with ${c.name}, in one line`, () => {
      const prefix = join(dir, `prefix-${cases.indexOf(c)}`);
      const run = installPinned({ prefix, spec: tarball, env: c.env });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^tether: installing tiny … done \(\d+\.\d s\)\n$/);
      const bin = join(prefix, 'node_modules', '.bin', 'tiny');
      expect(spawnSync(bin, [], { encoding: 'utf8' }).stdout).toBe('tiny 1.0.0\n');
      expect(existsSync(join(prefix, 'node_modules', 'tiny', 'postinstall-ran'))).toBe(true);
      // The install's own script policy, where npm 11 wants it for a project-scoped install.
      expect(JSON.parse(readFileSync(join(prefix, 'package.json'), 'utf8'))).toEqual({ private: true, allowScripts: { 'tiny@1.0.0': true } });
    });
  }

  it('a failing install says so on its line and prints what npm printed, in full', () => {
    const run = installPinned({ prefix: join(dir, 'prefix-missing'), spec: join(dir, 'no-such-1.0.0.tgz'), env: {} });
    expect(run.status).not.toBe(0);
    expect(run.stdout).toMatch(/^tether: installing tiny … failed \(\d+\.\d s\)\n$/);
    expect(run.stderr).toContain('npm error');
    expect(run.stderr).toContain('no-such-1.0.0.tgz');
    expect(run.stderr).toMatch(/tether: installing tiny failed \(npm: exit \d+\)\n$/);
  });
});
