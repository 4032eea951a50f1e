// git-repo.ts: real git for tests, the same on every machine (test support: imported by tests only):
// a person of its own, no signing, `main` as the first branch, whatever the machine's git config says.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** `git <args>` in `cwd`, its output trimmed; an error with git's own words when it fails. */
export function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/** `<dir>/<name>` (default `app`): `files` (path → text) in one commit on main, pushed to a bare
 *  `<dir>/remote.git` that is its upstream, so that only new work is unpushed. */
export function pushedRepo(options: { dir: string; name?: string; files: Record<string, string> }): { repo: string; remote: string } {
  const remote = join(options.dir, 'remote.git');
  const repo = join(options.dir, options.name ?? 'app');
  git(options.dir, 'init', '-q', '--bare', remote);
  git(options.dir, 'init', '-q', repo);
  for (const [path, text] of Object.entries(options.files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  git(repo, 'remote', 'add', 'origin', remote);
  git(repo, 'push', '-q', '-u', 'origin', 'main');
  return { repo, remote };
}
