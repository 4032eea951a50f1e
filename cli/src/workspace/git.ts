// git.ts: one `git` call in the session's directory, for the changes view. Arguments go as an array
// through capped-run.ts (no shell, output capped, a time limit).
// Environment: GIT_OPTIONAL_LOCKS=0 (a read never takes index.lock while claude is committing),
// GIT_LITERAL_PATHSPECS=1 (a file named `*` or `:(top)` means that file), no pager, no prompt.
import { runCapped, type CappedResult } from './capped-run.ts';

export type GitResult = CappedResult;

/** Longest a git call may take; the hub gives the whole answer 20 s. */
export const GIT_TIMEOUT_MS = 12_000;
/** Output read of one call by default; what follows is dropped (`capped`). */
export const GIT_OUTPUT_CAP = 8 * 1024 * 1024;

/** Global options on every call: plain paths (no octal quoting), no colour, no external tools. */
const GIT_OPTIONS = ['-c', 'core.quotepath=off', '-c', 'color.ui=false', '-c', 'core.fsmonitor=false'];

export function runGit(options: { cwd: string; args: string[]; cap?: number; timeoutMs?: number }): Promise<GitResult> {
  return runCapped({
    command: ['git', ...GIT_OPTIONS, ...options.args],
    cwd: options.cwd,
    env: { GIT_OPTIONAL_LOCKS: '0', GIT_LITERAL_PATHSPECS: '1', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat' },
    cap: options.cap ?? GIT_OUTPUT_CAP,
    timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS,
  });
}

/** Splits `-z` output at NUL (the last, empty part after the final NUL is dropped). */
export function splitNul(bytes: Uint8Array): string[] {
  const parts = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}
