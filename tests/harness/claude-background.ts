// claude-background.ts (harness): a claude background session (`claude --bg`) started outside tether
// in a claude sandbox (claude.ts), and everything claude starts for it ended again.
//
//   test ──claude --bg "…"──► claude's daemon (claude daemon run --origin transient, its own session)
//                               ├─ bg-pty-host ─► the background claude ──HTTP──► fake Anthropic
//                               └─ bg-pty-host ─► a spare claude (bg-spare)
//
// Invariant: stop() leaves no process of this sandbox behind: `claude stop <id>` first (claude's own
// way), then every process whose environment names this sandbox's CLAUDE_CONFIG_DIR (the daemon,
// its hosts and spares inherit it) is ended by its pid — never anything found by name. The daemon
// would exit on its own once idle, and a spare after a while: a test does not wait for that.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeBin, type ClaudeSandbox } from './claude.ts';

export type BackgroundClaude = {
  /** The 8-hex id `claude --bg` printed. */
  id: string;
  /** `claude <args>` in the sandbox; resolves with what it printed. */
  claude(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The live processes of this sandbox (their pids), read from /proc. */
  processes(): number[];
  stop(): Promise<void>;
};

/** 2.1.197's background session does not inherit ANTHROPIC_* from `claude --bg` (observed: it then
 *  tried the real API and printed "Unable to connect to API (FailedToOpenSocket)"); the user
 *  settings' `env` reaches it in both pins, so the fake API's address and key go there too. */
export function pointSettingsAtFakeApi(sandbox: ClaudeSandbox): void {
  const env = { ANTHROPIC_BASE_URL: sandbox.env.ANTHROPIC_BASE_URL!, ANTHROPIC_API_KEY: sandbox.env.ANTHROPIC_API_KEY! };
  writeFileSync(join(sandbox.configDir, 'settings.json'), JSON.stringify({ env }, null, 2));
}

function runClaude(sandbox: ClaudeSandbox, args: string[], bin: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(bin, args, { cwd: sandbox.cwd, env: sandbox.env, timeout: 30_000, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Pids of live processes whose environment has `CLAUDE_CONFIG_DIR=<configDir>` (this user's only). */
export function processesOfConfigDir(configDir: string): number[] {
  const needle = `\0CLAUDE_CONFIG_DIR=${configDir}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = `\0${readFileSync(`/proc/${entry}/environ`, 'latin1')}`;
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${entry}/status`, 'latin1'))?.[1];
      if (state !== 'Z' && environ.includes(needle)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

async function endProcesses(pids: number[], read: () => number[]): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 3_000;
  while (read().length > 0 && Date.now() < deadline) await Bun.sleep(100);
  for (const pid of read()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const killedBy = Date.now() + 2_000;
  while (read().length > 0 && Date.now() < killedBy) await Bun.sleep(100);
}

/** `claude --bg --permission-mode default "<prompt>"` in the sandbox (its cwd must be trusted). */
export async function startBackgroundClaude(options: { sandbox: ClaudeSandbox; prompt: string; bin?: string }): Promise<BackgroundClaude> {
  const { sandbox } = options;
  const bin = options.bin ?? claudeBin();
  pointSettingsAtFakeApi(sandbox);
  const claude = (args: string[]) => runClaude(sandbox, args, bin);
  const processes = () => processesOfConfigDir(sandbox.configDir);
  const started = await claude(['--bg', '--permission-mode', 'default', options.prompt]);
  const id = /backgrounded · ([0-9a-f]{8})/.exec(started.stdout)?.[1];
  if (!id) {
    await endProcesses(processes(), processes);
    throw new Error(`claude --bg printed no id (exit ${started.code}):\n${started.stdout}\n${started.stderr}`);
  }
  return {
    id,
    claude,
    processes,
    async stop() {
      const listed = await claude(['agents', '--json']);
      if (listed.stdout.includes(`"${id}"`)) await claude(['stop', id]);
      await endProcesses(processes(), processes);
      const left = processes();
      if (left.length > 0) throw new Error(`claude's background processes outlived the test: ${left.join(', ')}`);
    },
  };
}
