// added-dirs.ts: the folders the agent was given beyond the session's cwd (its plan's addedDirs, as
// typed), made what the hub keeps and a resume gives again: absolute, resolved as the agent resolves
// them (against the cwd it starts in), each once, bounded as the protocol bounds them (shared
// added-dirs.ts), and only folders that exist now: claude's `--add-dir` is variadic, so a prompt
// typed after it reads as one more "folder", which claude skips and a resume must not ask for. What
// is left out gets a line in the log: a resume from afar would not give it.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AddedDirSchema, MAX_ADDED_DIRS } from '@tether/shared';

export function recordedAddedDirs(o: { dirs: readonly string[]; cwd: string; log: (line: string) => void }): string[] {
  const out: string[] = [];
  for (const typed of o.dirs) {
    // Normalized too (`/a/../b/` is `/b`): one folder is recorded once.
    const dir = resolve(o.cwd, typed);
    if (out.includes(dir)) continue;
    if (!isFolder(dir)) {
      o.log(`added folder not recorded (not a folder here): ${dir.slice(0, 200)}`);
      continue;
    }
    if (!AddedDirSchema.safeParse(dir).success) {
      o.log(`added folder not recorded (a resume from afar will not give it): ${dir.slice(0, 200)}`);
      continue;
    }
    if (out.length === MAX_ADDED_DIRS) {
      o.log(`more than ${MAX_ADDED_DIRS} added folders: ${dir} and those after it are not recorded (a resume from afar will not give them)`);
      break;
    }
    out.push(dir);
  }
  return out;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
