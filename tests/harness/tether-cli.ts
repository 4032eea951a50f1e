// tether-cli.ts (harness): one `tether <verb> …` run as a plain child process (no terminal), for the
// verbs a shell user types (`pending`, `answer`, `resume`, `token`…): its exit code and output.
// Verbs that draw a screen (`claude`, `attach`) run in a PTY instead (desk.ts).
import { spawn } from 'node:child_process';
import { TETHER_MAIN } from './desk.ts';

export type TetherRun = { code: number | null; stdout: string; stderr: string };

/** `env` is added to this process's environment; `cwd` defaults to this process's. */
export function runTether(options: { args: string[]; env?: Record<string, string | undefined>; cwd?: string }): Promise<TetherRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TETHER_MAIN, ...options.args], {
      env: { ...process.env, ...options.env },
      ...(options.cwd ? { cwd: options.cwd } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
