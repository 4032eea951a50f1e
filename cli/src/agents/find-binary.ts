// find-binary.ts: which executable an agent's session runs. The agent's pin variable wins (tests pin a
// version with it, e.g. TETHER_CLAUDE_BIN); otherwise the first executable of that name on PATH. A
// missing binary is an error the user sees at once, with the fix, before any PTY exists.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

export class AgentNotFoundError extends Error {}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findAgentBinary(options: {
  env: NodeJS.ProcessEnv;
  /** The command's name on PATH. */
  command: string;
  /** The variable that pins a path, e.g. TETHER_CLAUDE_BIN. */
  pinVariable: string;
  /** How to install it, for the error. */
  install: string;
}): string {
  const { env, command, pinVariable } = options;
  const pinned = env[pinVariable];
  if (pinned) {
    const path = isAbsolute(pinned) ? pinned : resolve(pinned);
    if (!isExecutableFile(path)) {
      throw new AgentNotFoundError(`${pinVariable} points at ${path}, which is not an executable file; fix the path or unset it to use ${command} from PATH`);
    }
    return path;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new AgentNotFoundError(`${command} was not found on PATH; install it (${options.install}) or set ${pinVariable} to its path`);
}
