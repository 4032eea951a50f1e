// node-scripts.ts (harness): running the checkout's Node scripts (scripts/*.mjs, `npm start`, `npm run
// tether`) from a test as a person's shell would. vitest runs inside Bun (`bun --bun`), which puts
// its own `node` stand-in first on PATH; the scripts (and npm, `#!/usr/bin/env node`) must get the
// real Node they are written for, so that folder leaves PATH (the same rule the Gemini agent uses).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathForNodeAgent } from '../../cli/src/agents/gemini/node-path.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCRIPTS = join(REPO_ROOT, 'scripts');

/** This process's environment with the real Node first, plus `extra`. */
export function nodeScriptEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  env.PATH = pathForNodeAgent(env.PATH ?? '');
  return { ...env, ...extra };
}
