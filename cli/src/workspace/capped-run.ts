// capped-run.ts: one program run for the workspace and its git actions (git, gh): arguments as an
// array to Bun.spawn (never through a shell), stdout read up to a cap, the process killed past a time
// limit, so a huge or stuck repository cannot hold the runner. The environment is the runner's less
// tether's private keys: a repository's git hooks are the repository's code, and must not see the
// hub token either (config/private-env.ts).
import { withoutPrivateEnv } from '../config/private-env.ts';

export type CappedResult =
  | { kind: 'ok'; stdout: Uint8Array; capped: boolean }
  | { kind: 'failed'; code: number; stderr: string }
  | { kind: 'missing' }
  | { kind: 'timeout' };

export async function runCapped(options: { command: string[]; cwd: string; env: Record<string, string>; cap: number; timeoutMs: number }): Promise<CappedResult> {
  let proc: ReturnType<typeof Bun.spawn<'ignore', 'pipe', 'pipe'>>;
  try {
    proc = Bun.spawn(options.command, {
      cwd: options.cwd,
      env: { ...withoutPrivateEnv(process.env), ...options.env },
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
  }, options.timeoutMs);
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let capped = false;
    const reader = proc.stdout.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > options.cap) {
        chunks.push(value.subarray(0, options.cap - size));
        size = options.cap;
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
