// worktree-scan.bench.ts: what Archive's question costs on the machine (issue 38): `inspectWorktree`
// on a real git worktree that holds what a JavaScript project's does, a node_modules of 40,000 files
// in 2,000 folders (rebuildable: sized by the bounded walk), a build output, an ignored `.env` and a
// folder of a session's local data (loss: walked in full, its files in the digest).
//
//   worktree_inspect_ms       the Archive dialog's question: git status + log + every ignored path sized
//   worktree_inspect_loss_ms  a removal's look again: the rebuildable folders named, not sized
//   worktree_walk_entries_s   entries the walk lstat-ed per second in the first (the caps are in entries
//                             and time: REBUILDABLE_WALK's 100,000 entries / 3 s)
// Median of RUNS after one warm-up (the page cache then holds the tree, as it does at the desk).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectWorktree } from '../cli/src/worktrees/worktrees.ts';
import type { Measurement } from './run.ts';

const FOLDERS = 2_000;
const FILES_PER_FOLDER = 20;
const RUNS = 5;

function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(['git', '-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
}

/** A repository whose working tree holds a project's usual ignored weight; returns its path. */
function project(dir: string): string {
  const tree = join(dir, 'app');
  mkdirSync(join(tree, 'src'), { recursive: true });
  git(dir, 'init', '-q', tree);
  writeFileSync(join(tree, '.gitignore'), 'node_modules/\ndist/\n.env\n.session-data/\n');
  for (let i = 0; i < 50; i += 1) writeFileSync(join(tree, 'src', `m${i}.ts`), `export const m${i} = ${i};\n`);
  git(tree, 'add', '-A');
  git(tree, 'commit', '-q', '-m', 'first');
  for (let f = 0; f < FOLDERS; f += 1) {
    const folder = join(tree, 'node_modules', `pkg-${f}`, 'lib');
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < FILES_PER_FOLDER; i += 1) writeFileSync(join(folder, `f${i}.js`), `module.exports = ${i};\n`);
  }
  mkdirSync(join(tree, 'dist'));
  for (let i = 0; i < 200; i += 1) writeFileSync(join(tree, 'dist', `chunk-${i}.js`), 'x'.repeat(2_000));
  writeFileSync(join(tree, '.env'), 'API_KEY=local\n');
  mkdirSync(join(tree, '.session-data'));
  for (let i = 0; i < 300; i += 1) writeFileSync(join(tree, '.session-data', `r${i}.json`), '{}');
  return tree;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const samples: number[] = [];
  for (let r = 0; r < RUNS; r += 1) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return Math.round(samples[Math.floor(samples.length / 2)]!);
}

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tether-bench-worktree-'));
  try {
    const tree = project(dir);
    const check = await inspectWorktree(tree);
    if (!check.ok) throw new Error(check.error);
    const walked = check.rebuildable.reduce((sum, e) => sum + (e.files ?? 0), 0) + check.ignored.reduce((sum, e) => sum + (e.files ?? 0), 0);
    const all = await timed(() => inspectWorktree(tree));
    const loss = await timed(() => inspectWorktree(tree, { measure: 'loss' }));
    const capped = check.rebuildable.some((e) => e.atLeast);
    const files = FOLDERS * FILES_PER_FOLDER;
    return [
      { name: 'worktree_inspect_ms', value: all, unit: 'ms', files_ignored: walked, node_modules_files: files, capped, runs: RUNS },
      { name: 'worktree_inspect_loss_ms', value: loss, unit: 'ms', runs: RUNS },
      // Entries: every file and folder under the ignored paths (folders: node_modules' 2 per package).
      { name: 'worktree_walk_entries_s', value: Math.round(((walked + FOLDERS * 2) / all) * 1000), unit: 'entries/s', runs: RUNS },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
