// exact-env.ts: make a PTY child's environment exactly the one asked for.
// bun-pty starts the child from this process's own environ and only adds the `env` it is given on
// top (checked: a variable left out of `env` still reaches the child; `delete process.env.X` does
// not unsetenv). So a secret this process holds (the hub token) would reach the agent and the web
// shell whatever their env said. The child is started through `env -u NAME …` instead, which unsets
// every inherited name that is not asked for, then execs the program (same pid, same PTY). Only
// names go on the command line, never values.
import { existsSync, readFileSync } from 'node:fs';

const ENV_PROGRAM = ['/usr/bin/env', '/bin/env'].find((path) => existsSync(path)) ?? null;

/** Names in this process's environ as the kernel handed it over (Linux), else as Bun read it at start. */
const startNames: readonly string[] = Object.keys(process.env);
function inheritedNames(): string[] {
  try {
    const raw = readFileSync('/proc/self/environ', 'latin1');
    return raw.split('\0').filter(Boolean).map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? pair : pair.slice(0, at);
    });
  } catch {
    return [...new Set([...startNames, ...Object.keys(process.env)])];
  }
}

/** The program and arguments that start `file args` with exactly `env`'s names set. */
export function exactEnvCommand(options: { file: string; args: string[]; env: Record<string, string> }): { file: string; args: string[] } {
  const unset = inheritedNames().filter((name) => name !== '' && !(name in options.env));
  // A program path with '=' would be read by env as an assignment: start it as before.
  if (unset.length === 0 || ENV_PROGRAM === null || options.file.includes('=')) return { file: options.file, args: options.args };
  return { file: ENV_PROGRAM, args: [...unset.flatMap((name) => ['-u', name]), '--', options.file, ...options.args] };
}
