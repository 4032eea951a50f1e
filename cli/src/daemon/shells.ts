// shells.ts: web shells on this machine (shared/src/shell.ts): a login shell in a PTY per shell id,
// i.e. per (namespace, machine, viewer); the hub names the shell, this file runs it.
//
//   daemon:shell-open ─► new: spawn `$SHELL -l` (or /bin/sh) in cwd │ known: the held output, reset
//   PTY bytes ─► held log (bounded, SHELL_LOG_BYTES) + shell:output ─► hub ─► that one viewer
//   daemon:shell-detach (viewer gone) ─► idle clock (SHELL_IDLE_MS) ─► SIGHUP, then SIGKILL
//   shell exits ─► shell:exit
//
// Invariants: nothing runs unless the daemon was started with --allow-shell (the machine's owner
// opts in; the hub's owner opts in separately); a shell never outlives its idle clock; the daemon's
// own hub token is not in the shell's environment.
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ackError, SHELL_IDLE_MS, SHELL_LOG_BYTES, type Ack, type DaemonCommandAcks, type ShellExit, type ShellOutput } from '@tether/shared';
import { isPrivateEnvKey } from '../config/private-env.ts';
import { spawnPty, type PtyProcess } from '../pty/pty.ts';

/** A hung shell that ignores SIGHUP is SIGKILLed after this. */
const HANGUP_GRACE_MS = 2_000;
/** Shells per daemon: a runaway client cannot fork-bomb the machine through the hub. */
export const MAX_SHELLS = 32;

type Shell = {
  pty: PtyProcess;
  /** Held output: chunks and the absolute offset of the first one. */
  log: Uint8Array[];
  logStart: number;
  logBytes: number;
  idle: ReturnType<typeof setTimeout> | null;
  closing: string | null;
};

export type ShellHostEvent = { kind: 'shell-opened'; shellId: string; pid: number; cwd: string } | { kind: 'shell-ended'; shellId: string; reason: string };

export function createShellHost(options: {
  allow: boolean;
  env: NodeJS.ProcessEnv;
  /** Default SHELL_IDLE_MS; TETHER_SHELL_IDLE_MS overrides it (tests). */
  idleMs?: number;
  sendOutput(output: ShellOutput): void;
  sendExit(exit: ShellExit): void;
  onEvent(event: ShellHostEvent): void;
}) {
  const shells = new Map<string, Shell>();
  const idleMs = options.idleMs ?? SHELL_IDLE_MS;
  const home = options.env.HOME || homedir();

  const hangUp = (shellId: string, reason: string) => {
    const shell = shells.get(shellId);
    if (!shell || shell.closing) return;
    shell.closing = reason;
    if (shell.idle) clearTimeout(shell.idle);
    // SIGHUP, as a closed terminal: an interactive shell ignores SIGTERM.
    shell.pty.kill('SIGHUP');
    const force = setTimeout(() => shell.pty.kill('SIGKILL'), HANGUP_GRACE_MS);
    void shell.pty.exited.then(() => clearTimeout(force));
  };

  const start = (shellId: string, request: { cwd: string | null; cols: number; rows: number }): Ack<DaemonCommandAcks['daemon:shell-open']> => {
    if (shells.size >= MAX_SHELLS) return ackError('conflict', `this machine already runs ${MAX_SHELLS} web shells`);
    const asked = request.cwd ?? '~';
    const cwd = asked === '~' ? home : asked.startsWith('~/') ? join(home, asked.slice(2)) : asked;
    if (!isAbsolute(cwd)) return ackError('bad_request', `not an absolute directory: ${asked}`);
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) return ackError('not_found', `no such directory on this machine: ${cwd}`);
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.env)) if (value !== undefined && !isPrivateEnvKey(key)) env[key] = value;
    env.TERM = 'xterm-256color';
    env.COLORTERM = 'truecolor';
    const configured = options.env.SHELL;
    const file = configured && isAbsolute(configured) && existsSync(configured) ? configured : '/bin/sh';
    let pty: PtyProcess;
    try {
      pty = spawnPty({ file, args: ['-l'], cwd, env, cols: request.cols, rows: request.rows });
    } catch (error) {
      return ackError('internal', `could not start ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const shell: Shell = { pty, log: [], logStart: 0, logBytes: 0, idle: null, closing: null };
    shells.set(shellId, shell);
    pty.onData(({ data, offset }) => {
      shell.log.push(data);
      shell.logBytes += data.byteLength;
      while (shell.logBytes > SHELL_LOG_BYTES && shell.log.length > 1) {
        const dropped = shell.log.shift()!;
        shell.logBytes -= dropped.byteLength;
        shell.logStart += dropped.byteLength;
      }
      options.sendOutput({ shellId, offset, data });
    });
    void pty.exited.then((exit) => {
      if (shell.idle) clearTimeout(shell.idle);
      shells.delete(shellId);
      const reason = shell.closing ?? 'the shell exited';
      options.onEvent({ kind: 'shell-ended', shellId, reason });
      options.sendExit({ shellId, exitCode: exit.exitCode, signal: exit.signal, reason });
    });
    options.onEvent({ kind: 'shell-opened', shellId, pid: pty.pid, cwd });
    return { ok: true, reattached: false, pid: pty.pid };
  };

  const held = (shell: Shell): Uint8Array => {
    const out = new Uint8Array(shell.logBytes);
    let at = 0;
    for (const chunk of shell.log) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    return out;
  };

  return {
    open(request: { shellId: string; cwd: string | null; cols: number; rows: number }): Ack<DaemonCommandAcks['daemon:shell-open']> {
      if (!options.allow) return ackError('forbidden', 'this machine does not allow shells; start its daemon with `tether daemon --allow-shell`');
      const shell = shells.get(request.shellId);
      if (!shell || shell.closing) return start(request.shellId, request);
      if (shell.idle) clearTimeout(shell.idle);
      shell.idle = null;
      shell.pty.resize({ cols: request.cols, rows: request.rows });
      // Before the ack: the hub routes it to the viewer ahead of any live byte.
      options.sendOutput({ shellId: request.shellId, offset: shell.logStart, data: held(shell), reset: true });
      return { ok: true, reattached: true, pid: shell.pty.pid };
    },
    input(shellId: string, data: string): Ack<object> {
      const shell = shells.get(shellId);
      if (!shell || shell.closing) return ackError('not_found', 'no such shell');
      shell.pty.write(data);
      return { ok: true };
    },
    resize(shellId: string, size: { cols: number; rows: number }): Ack<object> {
      const shell = shells.get(shellId);
      if (!shell || shell.closing) return ackError('not_found', 'no such shell');
      shell.pty.resize(size);
      return { ok: true };
    },
    close(shellId: string): Ack<object> {
      if (!shells.has(shellId)) return ackError('not_found', 'no such shell');
      hangUp(shellId, 'closed');
      return { ok: true };
    },
    /** The viewer went away: the shell waits idleMs for it, then ends. */
    detach(shellId: string): Ack<object> {
      const shell = shells.get(shellId);
      if (!shell) return ackError('not_found', 'no such shell');
      if (shell.idle) clearTimeout(shell.idle);
      shell.idle = setTimeout(() => hangUp(shellId, `no viewer for ${Math.round(idleMs / 1000)} s`), idleMs);
      return { ok: true };
    },
    /** The hub is out of reach: every viewer is gone. */
    detachAll(): void {
      for (const shellId of shells.keys()) this.detach(shellId);
    },
    stopAll(): void {
      for (const shellId of [...shells.keys()]) hangUp(shellId, 'the daemon stopped');
    },
  };
}
