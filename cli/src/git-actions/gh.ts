// gh.ts: GitHub's `gh` on the session's machine, for "Open pull request": offered only when it is
// installed and logged in (`gh auth status` exits 0), run with its prompts off, args as an array.
// The machine's own login is used; nothing of it leaves the machine but the pull request's URL.

/** gh may ask GitHub; a slow network is not a stuck runner, but the hub waits 60 s in all. */
const GH_TIMEOUT_MS = 40_000;

export type GhResult = { kind: 'ok'; stdout: string } | { kind: 'failed'; stderr: string } | { kind: 'missing' } | { kind: 'timeout' };

export async function runGh(options: { cwd: string; args: string[]; gh?: string; timeoutMs?: number }): Promise<GhResult> {
  let proc: ReturnType<typeof Bun.spawn<'ignore', 'pipe', 'pipe'>>;
  try {
    proc = Bun.spawn([options.gh ?? 'gh', ...options.args], {
      cwd: options.cwd,
      env: { ...process.env, GH_PROMPT_DISABLED: '1', GH_NO_UPDATE_NOTIFIER: '1', GIT_TERMINAL_PROMPT: '0', NO_COLOR: '1' },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    });
  } catch {
    return { kind: 'missing' };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill('SIGKILL');
  }, options.timeoutMs ?? GH_TIMEOUT_MS);
  try {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (timedOut) return { kind: 'timeout' };
    return code === 0 ? { kind: 'ok', stdout: stdout.slice(0, 10_000) } : { kind: 'failed', stderr: stderr.trim().slice(0, 500) };
  } finally {
    clearTimeout(timer);
  }
}

/** `gh` is installed and logged in for this repository's host. */
export async function ghReady(options: { cwd: string; gh?: string }): Promise<boolean> {
  const status = await runGh({ cwd: options.cwd, args: ['auth', 'status'], timeoutMs: 8_000, ...(options.gh ? { gh: options.gh } : {}) });
  return status.kind === 'ok';
}
