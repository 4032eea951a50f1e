// gh.ts: GitHub's `gh` on the session's machine, for "Open pull request": offered only when it is
// installed and logged in (`gh auth status` exits 0), run with its prompts off, args as an array.
// The machine's own login is used; nothing of it leaves the machine but the pull request's URL.

import { runCapped } from '../workspace/capped-run.ts';

/** gh's output read (it is killed past this), and what of it is kept: a pull request's URL and a few lines. */
const GH_OUTPUT_CAP = 1024 * 1024;
const GH_OUTPUT_KEPT_CHARS = 10_000;
/** gh may ask GitHub; a slow network is not a stuck runner, but the hub waits 60 s in all. */
const GH_TIMEOUT_MS = 40_000;

export type GhResult = { kind: 'ok'; stdout: string } | { kind: 'failed'; stderr: string } | { kind: 'missing' } | { kind: 'timeout' };

export async function runGh(options: { cwd: string; args: string[]; gh?: string; timeoutMs?: number }): Promise<GhResult> {
  const result = await runCapped({
    command: [options.gh ?? 'gh', ...options.args],
    cwd: options.cwd,
    env: { GH_PROMPT_DISABLED: '1', GH_NO_UPDATE_NOTIFIER: '1', GIT_TERMINAL_PROMPT: '0', NO_COLOR: '1' },
    cap: GH_OUTPUT_CAP,
    timeoutMs: options.timeoutMs ?? GH_TIMEOUT_MS,
  });
  if (result.kind === 'ok') return { kind: 'ok', stdout: new TextDecoder().decode(result.stdout).slice(0, GH_OUTPUT_KEPT_CHARS) };
  if (result.kind === 'failed') return { kind: 'failed', stderr: result.stderr };
  return result;
}

/** `gh` is installed and logged in for this repository's host. */
export async function ghReady(options: { cwd: string; gh?: string }): Promise<boolean> {
  const status = await runGh({ cwd: options.cwd, args: ['auth', 'status'], timeoutMs: 8_000, ...(options.gh ? { gh: options.gh } : {}) });
  return status.kind === 'ok';
}
