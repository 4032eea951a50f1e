// find-binary.ts: which `claude` executable a session runs.
// TETHER_CLAUDE_BIN wins (tests pin a version with it); otherwise the first executable `claude` on
// PATH. A missing binary is an error the user sees at once, with the fix, before any PTY exists.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

export class ClaudeNotFoundError extends Error {}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findClaudeBinary(options: { env?: NodeJS.ProcessEnv } = {}): string {
  const env = options.env ?? process.env;
  const pinned = env.TETHER_CLAUDE_BIN;
  if (pinned) {
    const path = isAbsolute(pinned) ? pinned : resolve(pinned);
    if (!isExecutableFile(path)) {
      throw new ClaudeNotFoundError(
        `TETHER_CLAUDE_BIN points at ${path}, which is not an executable file; fix the path or unset it to use claude from PATH`,
      );
    }
    return path;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'claude');
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new ClaudeNotFoundError(
    'claude was not found on PATH; install it (npm install -g @anthropic-ai/claude-code) or set TETHER_CLAUDE_BIN to its path',
  );
}
