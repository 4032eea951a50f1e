// served.ts: opencode's server run by tether for a TUI that cannot run its own behind a password
// (1.17.0: its TUI does not send the password to the server it starts, whose answers are then 401
// and it exits). tether starts `opencode serve --port N --hostname 127.0.0.1` in the session's folder
// (the password in its environment only), waits until it answers, and the PTY runs `opencode attach
// <url> --dir <folder>`, which sends OPENCODE_SERVER_PASSWORD from its environment. The bridge hears
// the same server either way (bridge.ts).
//
// Invariants: the server's output never reaches the PTY (its stdout is dropped, its stderr kept for a
// failure's reason); it ends with the session: its process group (its own, so an npm launcher that
// runs the native binary as a child goes too) gets SIGTERM when the launch is removed, SIGKILL as
// tether's process exits if it is still there.
import { authorization, PASSWORD_VARIABLE, USERNAME, USERNAME_VARIABLE, type OpencodeServer } from './server-link.ts';

/** Its start took 27-60 s on a loaded 2-core machine (190 s once): a person waits at most this. */
const READY_LIMIT_MS = 300_000;
const PROBE_EVERY_MS = 500;
/** A connection made while it starts gets no answer at all: each probe gives up after this. */
const PROBE_TIMEOUT_MS = 5_000;
const STDERR_KEPT = 2_000;

export type ServedOpencode = {
  /** Resolves once the server answers; rejects with why it will not (it exited, or never answered). */
  ready: Promise<void>;
  stop(): void;
};

async function keepTail(stream: ReadableStream<Uint8Array>, into: { text: string }): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) into.text = (into.text + decoder.decode(chunk, { stream: true })).slice(-STDERR_KEPT);
}

async function answers(server: OpencodeServer): Promise<boolean> {
  try {
    const response = await fetch(`${server.url}/global/health`, { headers: { authorization: authorization(server) }, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

export function startServedOpencode(o: { bin: string; server: OpencodeServer; env: Record<string, string>; cwd: string }): ServedOpencode {
  const proc = Bun.spawn([o.bin, 'serve', '--port', String(o.server.port), '--hostname', '127.0.0.1'], {
    cwd: o.cwd,
    env: { ...o.env, [PASSWORD_VARIABLE]: o.server.password, [USERNAME_VARIABLE]: USERNAME },
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
    detached: true,
  });
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-proc.pid, name);
    } catch {
      // the group is gone already
    }
  };
  const stderr = { text: '' };
  const tail = keepTail(proc.stderr, stderr).catch(() => {});
  let stopped = false;
  const alive = () => proc.exitCode === null && proc.signalCode === null;
  // Still there when tether itself exits (it ended without removing the launch): killed then.
  const killAtExit = () => {
    if (alive()) signal('SIGKILL');
  };
  process.once('exit', killAtExit);
  void proc.exited.then(() => process.off('exit', killAtExit));

  const ready = (async () => {
    const deadline = Date.now() + READY_LIMIT_MS;
    while (Date.now() < deadline) {
      if (stopped) throw new Error("opencode's server was stopped before it answered");
      if (!alive()) {
        // Its last words are read to the pipe's end (a child holding it open: not waited for long).
        await Promise.race([tail, Bun.sleep(1_000)]);
        throw new Error(`opencode serve exited (${proc.exitCode ?? proc.signalCode}) before it answered${stderr.text.trim() ? `: ${stderr.text.trim()}` : ''}`);
      }
      if (await answers(o.server)) return;
      await Bun.sleep(PROBE_EVERY_MS);
    }
    throw new Error(`opencode serve did not answer within ${READY_LIMIT_MS / 1000} s`);
  })();
  // Its failure is the launch's to report (HookInstall.ready); unawaited it must not crash tether.
  ready.catch(() => {});

  return {
    ready,
    stop: () => {
      stopped = true;
      if (alive()) signal('SIGTERM');
    },
  };
}
