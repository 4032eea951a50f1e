// process.ts: an agent's headless process (claude -p, codex app-server) as a session runs
// it: spawned with pipes in the session's env, stopped on the runner's signals, and its stderr's
// tail kept, because an agent that exits before it is ready says why there and nowhere else.
import type { SessionCore } from '../session/core.ts';

/** stderr kept for the failure reason. */
const STDERR_KEEP_CHARS = 2_000;

export type HeadlessProcess = {
  pid: number;
  stdin: Bun.FileSink;
  stdout: ReadableStream<Uint8Array>;
  /** Each chunk of stderr, as text, from now on. */
  onStderr(listener: (text: string) => void): void;
  exited: Promise<number>;
  /** A signal to the agent; nothing when it is gone. */
  stop(signal?: NodeJS.Signals): void;
  /** Once exited (stderr read to its end): the signal that ended it, if one did, and stderr's last
   *  non-blank lines. */
  ended(): Promise<{ exitCode: number; signal: string | null; stderrLines: string[] }>;
};

/** Spawns `binary args` for the session, or returns why it could not. */
export function spawnHeadless(o: { core: SessionCore; binary: string; args: string[]; cwd: string }): HeadlessProcess | { error: string } {
  let proc: ReturnType<typeof Bun.spawn<'pipe', 'pipe', 'pipe'>>;
  try {
    proc = Bun.spawn([o.binary, ...o.args], { cwd: o.cwd, env: o.core.env, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  } catch (error) {
    return { error: `could not start ${o.binary}: ${error instanceof Error ? error.message : String(error)}` };
  }
  o.core.log(`session ${o.core.state.id}: spawned headless ${o.binary} (pid ${proc.pid}) ${JSON.stringify(o.args)}`);
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    try {
      proc.kill(signal);
    } catch {
      // gone
    }
  };
  o.core.stopOnSignals(() => stop());
  let stderrText = '';
  const stderrListeners: Array<(text: string) => void> = [];
  const stderrRead = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) {
      const text = decoder.decode(chunk, { stream: true });
      stderrText = (stderrText + text).slice(-STDERR_KEEP_CHARS);
      for (const listener of stderrListeners) listener(text);
    }
  })().catch(() => {});
  return {
    pid: proc.pid,
    stdin: proc.stdin,
    stdout: proc.stdout,
    onStderr: (listener) => void stderrListeners.push(listener),
    exited: proc.exited,
    stop,
    ended: async () => {
      const exitCode = await proc.exited;
      await stderrRead;
      return { exitCode, signal: proc.signalCode ? String(proc.signalCode) : null, stderrLines: stderrText.trim().split('\n').filter((line) => line.trim() !== '') };
    },
  };
}
