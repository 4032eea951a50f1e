// background.ts: claude's background sessions (`claude --bg`, CLAUDE-CODE.md §11), as tether reads
// and drives them: `claude agents --json` lists them, `claude attach <id>` draws one's TUI in the
// terminal it runs in, `claude stop <id>` ends it. They run under claude's own daemon (`claude daemon
// run --origin transient`, one per config dir), not under tether: tether only ever attaches.
//
// Invariant: every function here starts one short claude process when called and none otherwise
// (a listing is asked for on demand, never polled while idle); what claude prints is validated
// before anything is believed.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { z } from 'zod';
import { BackgroundIdSchema, type AgentCapabilities } from '@tether/shared';
import type { AgentBackground } from '../background.ts';
import { claudeCapabilities } from './capabilities.ts';
import { claudeConfigDir } from './env.ts';
import { claudeVersions } from './version.ts';

/** `claude agents --json` answers in ~0.3 s here; a loaded machine gets ten times that. */
const CLAUDE_CALL_TIMEOUT_MS = 10_000;
/** A listing of a few hundred sessions is far below this; more is not claude's answer. */
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/** One entry of `claude agents --json`. 2.1.332 writes every field; 2.1.197 has no `pid` and no
 *  `status`, so those are optional. Unknown fields are dropped. */
export const ClaudeBackgroundSessionSchema = z.object({
  id: BackgroundIdSchema,
  /** The full UUID of its conversation: its transcript is `<config>/projects/<cwd key>/<sessionId>.jsonl`. */
  sessionId: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i),
  cwd: z.string().min(1).max(4096),
  kind: z.string().max(40),
  startedAt: z.number(),
  pid: z.number().int().positive().optional(),
  name: z.string().max(2000).optional(),
  status: z.string().max(40).optional(),
  state: z.string().max(40).optional(),
});
export type ClaudeBackgroundSession = z.infer<typeof ClaudeBackgroundSessionSchema>;

export const ClaudeBackgroundListSchema = z.array(ClaudeBackgroundSessionSchema).max(10_000);

export type BackgroundSupport = { ok: true } | { ok: false; reason: string };

type ClaudeCall = { claudeBin: string; env?: NodeJS.ProcessEnv };

/** The environment a claude call runs with: the caller's, with `configDir` as CLAUDE_CONFIG_DIR when
 *  given (the daemon and its sessions are per config dir), and not inside another claude session. */
function callEnv(o: ClaudeCall & { configDir?: string }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...(o.env ?? process.env), CLAUDECODE: '' };
  if (o.configDir) env.CLAUDE_CONFIG_DIR = o.configDir;
  return env;
}

function runClaude(o: ClaudeCall & { configDir?: string; args: string[] }): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(o.claudeBin, o.args, { env: callEnv(o), timeout: CLAUDE_CALL_TIMEOUT_MS, maxBuffer: MAX_OUTPUT_BYTES, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: error && !stderr ? error.message : String(stderr) });
    });
  });
}

/** Whether a claude whose `--help` says `help` has background sessions. 2.1.197 lists `--bg` and the
 *  `agents` command (its `attach` and `stop` work but are not listed); 2.1.332 lists all four. */
export function backgroundSupportFromHelp(help: string, version: string | null): BackgroundSupport {
  const bg = /^\s+--bg\b/m.test(help);
  const agents = /^\s+agents\b/m.test(help);
  if (bg && agents) return { ok: true };
  const missing = [...(bg ? [] : ['--bg']), ...(agents ? [] : ['the agents command'])].join(' and ');
  return { ok: false, reason: `claude ${version ?? '(unknown version)'} has no background sessions (its --help lists no ${missing}): adopting a live claude --bg session needs a claude that has them` };
}

/** Asks this claude whether it has background sessions (`claude --help`, one short process). */
export async function claudeBackgroundSupport(o: ClaudeCall): Promise<BackgroundSupport> {
  const help = await runClaude({ ...o, args: ['--help'] });
  if (help.code !== 0) return { ok: false, reason: `claude --help failed (exit ${help.code}): ${help.stderr.trim().slice(0, 300)}` };
  return backgroundSupportFromHelp(help.stdout, claudeVersions.read(o.claudeBin, { env: callEnv(o) }));
}

/** Reads what `claude agents --json` printed; throws with what was wrong. */
export function parseBackgroundList(stdout: string): ClaudeBackgroundSession[] {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    throw new Error(`claude agents --json printed no JSON: ${stdout.trim().slice(0, 200)}`);
  }
  const parsed = ClaudeBackgroundListSchema.safeParse(json);
  if (!parsed.success) throw new Error(`claude agents --json printed an unexpected list: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/**
 * The background sessions claude runs for `configDir` (`claude agents --json`), newest listing
 * claude has. Only on demand: each call starts one claude process. Throws when claude fails.
 */
export async function claudeBackgroundSessions(o: ClaudeCall & { configDir: string }): Promise<ClaudeBackgroundSession[]> {
  const listed = await runClaude({ ...o, args: ['agents', '--json'] });
  if (listed.code !== 0) throw new Error(`claude agents --json failed (exit ${listed.code}): ${listed.stderr.trim().slice(0, 300)}`);
  return parseBackgroundList(listed.stdout);
}

/** `claude stop <id>`: claude ends that background session (its conversation stays on disk). */
export async function stopClaudeBackground(o: ClaudeCall & { configDir: string; id: string }): Promise<void> {
  const id = BackgroundIdSchema.parse(o.id);
  const stopped = await runClaude({ ...o, args: ['stop', id] });
  if (stopped.code !== 0) throw new Error(`claude stop ${id} failed (exit ${stopped.code}): ${(stopped.stderr || stopped.stdout).trim().slice(0, 300)}`);
}

/** Where claude writes the conversation `sessionId` started in `cwd`: every non-alphanumeric
 *  character of the folder becomes "-" (CLAUDE-CODE.md §5). */
export function claudeTranscriptPath(o: { configDir: string; cwd: string; sessionId: string }): string {
  return join(o.configDir, 'projects', o.cwd.replace(/[^a-zA-Z0-9]/g, '-'), `${o.sessionId}.jsonl`);
}

/** The arguments that draw background session `id` in this terminal. */
export function claudeAttachArgs(id: string): string[] {
  return ['attach', BackgroundIdSchema.parse(id)];
}

/** What the phone may do with an adopted claude background session: no hook approvals (no
 *  PermissionRequest hook runs in it), so no "allow for this session" and no edited input: its
 *  permission dialogs reach the phone as dialogs, answered with the keys claude's screen takes. */
export function adoptedCapabilities(o: { base: AgentCapabilities; id: string }): AgentCapabilities {
  return {
    ...o.base,
    // `stop`: the runner's attached kind stops it in claude's pool when the phone asks (claude stop).
    adopted: { backgroundId: BackgroundIdSchema.parse(o.id), note: 'adopted: no hook approvals (a claude --bg session; its dialogs are answered on its screen)', stop: true },
    relays: { requests: ['dialog'], editedInput: false, sessionRules: false },
  };
}

/** Ctrl+Z in `claude attach`: back to the shell, the session keeps running (§11); the attach
 *  process exits 0. */
const CTRL_Z = '\x1a';

export const claudeBackground: AgentBackground = {
  support: ({ binary, env }) => claudeBackgroundSupport({ claudeBin: binary, env }),
  list: async ({ binary, env }) =>
    (await claudeBackgroundSessions({ claudeBin: binary, env, configDir: claudeConfigDir(env) })).map((s) => ({
      id: s.id,
      agentSessionId: s.sessionId,
      cwd: s.cwd,
      pid: s.pid ?? null,
      title: s.name ?? null,
      startedAt: s.startedAt,
    })),
  transcriptPath: ({ env, session }) => claudeTranscriptPath({ configDir: claudeConfigDir(env), cwd: session.cwd, sessionId: session.agentSessionId }),
  attachArgs: claudeAttachArgs,
  stop: ({ binary, env, id }) => stopClaudeBackground({ claudeBin: binary, env, configDir: claudeConfigDir(env), id }),
  capabilities: (id) => adoptedCapabilities({ base: claudeCapabilities, id }),
  detachKeys: CTRL_Z,
};
