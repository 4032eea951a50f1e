// self-command.ts: how this tether starts itself again (hooks, the daemon's runners, service units):
// the running Bun with this checkout's (or package's) cli/src/main.ts, or, in a single-file build
// where main.ts is not on disk, the executable itself.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export function tetherCommand(): string[] {
  const entry = resolve(import.meta.dirname, '..', 'main.ts');
  return existsSync(entry) ? [process.execPath, entry] : [process.execPath];
}
