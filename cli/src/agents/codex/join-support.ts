// join-support.ts: whether the installed Codex can be joined at the desk (remote.ts's joinSupport for
// its version), read from the version cache `tether codex` keeps in TETHER_HOME.
import { join } from 'node:path';
import { tetherHome } from '../../config/paths.ts';
import { findCodexBinary } from './binary.ts';
import { joinSupport } from './remote.ts';
import { codexVersions } from './version.ts';

export function codexJoinSupport(env: Record<string, string | undefined>): ReturnType<typeof joinSupport> {
  let binary: string;
  try {
    binary = findCodexBinary(env);
  } catch {
    return { supported: false, reason: 'codex was not found' };
  }
  return joinSupport(codexVersions.cached({ bin: binary, cacheFile: join(tetherHome(env), 'codex-version.json') }));
}
