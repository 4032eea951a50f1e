// forward.mjs: runs a long-lived tether (the hub for `npm start`, any verb for `npm run tether`) in
// this script's place: same terminal, its exit code ours, and a stop meant for the script reaches it.
//
// Invariant: the script never exits before its child. Node has no exec, and a signal's default kills
// only this process: `npm start` stopped with SIGTERM used to leave the hub running, port and all.
// Ctrl-C at a terminal reaches the whole foreground group, the child included; what reaches only the
// script (npm passing on a SIGTERM, a `kill`) must be passed on. The child gets one SIGTERM, at the
// first signal: the hub stops gracefully once whichever of SIGINT and SIGTERM comes first (a second
// Ctrl-C still goes to it straight from the terminal, and cuts its stop short).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const STOPS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Runs `cmd args` with this process's stdio; resolves with the exit code to exit with. */
export function forward(options) {
  const { cmd, args, cwd, env } = options;
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: env ?? process.env, stdio: 'inherit' });
    let passedOn = false;
    const onStop = () => {
      if (passedOn) return;
      passedOn = true;
      child.kill('SIGTERM');
    };
    for (const signal of STOPS) process.on(signal, onStop);
    child.once('error', (error) => {
      process.stderr.write(`tether: ${cmd}: ${error.message}\n`);
      resolve(127);
    });
    child.once('exit', (code, signal) => {
      for (const s of STOPS) process.off(s, onStop);
      resolve(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}
