// node-path.ts: Gemini CLI must run on Node. Its `gemini` is `#!/usr/bin/env node`, and a tether
// started by `bun run` / `bun --bun` has Bun's `node` stand-in (a bun-node-* directory) first on PATH:
// on Bun, Gemini's shell tool loses its pseudo-terminal at once (the command "ran" with no output and
// Signal 1, SIGHUP). So that directory leaves the agent's PATH when a real node is further on it.
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

const BUN_NODE_DIR = /[\\/]bun-node-[^\\/]*$/;

function hasNode(dir: string): boolean {
  try {
    accessSync(join(dir, 'node'), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `path` without Bun's node stand-in, if a real `node` is on it too; else unchanged (Bun's node is
 *  then the only one, and Gemini may at least start). */
export function pathForNodeAgent(path: string, exists: (dir: string) => boolean = hasNode): string {
  const dirs = path.split(':');
  const kept = dirs.filter((dir) => !BUN_NODE_DIR.test(dir));
  if (kept.length === dirs.length || !kept.some((dir) => dir !== '' && exists(dir))) return path;
  return kept.join(':');
}
