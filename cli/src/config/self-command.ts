// self-command.ts: how this tether starts itself again (hooks, the daemon's runners, service units).
// checkout: the running Bun with this checkout's cli/src/main.ts; npm package: the package's Bun with
// the same flags (the launcher's --no-env-file) and dist/main.js; single-file binary: the executable.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildKind } from './build.ts';

export function tetherCommand(): string[] {
  switch (buildKind()) {
    case 'binary':
      return [process.execPath];
    case 'package':
      return [process.execPath, ...process.execArgv, Bun.main];
    case 'checkout': {
      const entry = resolve(import.meta.dirname, '..', 'main.ts');
      return existsSync(entry) ? [process.execPath, entry] : [process.execPath];
    }
  }
}
