// git.ts: one `git` call in the session's directory, for the changes view. Arguments go as an array
// to Bun.spawn (never through a shell); output is read up to a cap and the process is killed past a
// time limit, so a huge or stuck repository cannot hold the runner.
// Environment: GIT_OPTIONAL_LOCKS=0 (a read never takes index.lock while claude is committing),
// GIT_LITERAL_PATHSPECS=1 (a file named `*` or `:(top)` means that file), no pager, no prompt.
export type GitResult =
  | { kind: 'ok'; stdout: Uint8Array; capped: boolean }
  | { kind: 'failed'; code: number; stderr: string }
  | { kind: 'missing' }
  | { kind: 'timeout' };

/** Longest a git call may take; the hub gives the whole answer 20 s. */
export const GIT_TIMEOUT_MS = 12_000;
/** Output read of one call by default; what follows is dropped (`capped`). */
export const GIT_OUTPUT_CAP = 8 * 1024 * 1024;

/** Global options on every call: plain paths (no octal quoting), no colour, no external tools. */
const GIT_OPTIONS = ['-c', 'core.quotepath=off', '-c', 'color.ui=false', '-c', 'core.fsmonitor=false'];

export async function runGit(options: { cwd: string; args: string[]; cap?: number; timeoutMs?: number }): Promise<GitResult> {
  const cap = options.cap ?? GIT_OUTPUT_CAP;
  let proc: ReturnType<typeof Bun.spawn<'ignore', 'pipe', 'pipe'>>;
  try {
    proc = Bun.spawn(['git', ...GIT_OPTIONS, ...options.args], {
      cwd: options.cwd,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_LITERAL_PATHSPECS: '1', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat' },
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
  }, options.timeoutMs ?? GIT_TIMEOUT_MS);
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let capped = false;
    const reader = proc.stdout.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > cap) {
        chunks.push(value.subarray(0, cap - size));
        size = cap;
        capped = true;
        proc.kill('SIGKILL');
        void reader.cancel().catch(() => {});
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
    const stderr = await new Response(proc.stderr).text().catch(() => '');
    const code = await proc.exited;
    if (timedOut) return { kind: 'timeout' };
    if (!capped && code !== 0) return { kind: 'failed', code, stderr: stderr.trim().slice(0, 500) };
    return { kind: 'ok', stdout: Buffer.concat(chunks), capped };
  } finally {
    clearTimeout(timer);
  }
}

/** Splits `-z` output at NUL (the last, empty part after the final NUL is dropped). */
export function splitNul(bytes: Uint8Array): string[] {
  const parts = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}
