// headless.ts: Gemini's headless transport: `gemini --acp` (Agent Client Protocol on its stdio),
// spoken by the agent-neutral ACP transport (agents/acp/). This file says only what is Gemini's: its
// command line for ACP and where its session file is.
//
//   args: --acp, the user's flags but a resume (ACP's session/load names the session instead), and
//         the permission mode as --approval-mode (Gemini asks over ACP exactly where that mode asks)
//   transcript: ~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl whose header names the id
//         (written when the session opens; `~` is GEMINI_CLI_HOME when the user set it)
//   before a load: the wait of load-minute.ts (a Gemini bug that would wipe the session)
import { existsSync, openSync, readdirSync, readSync, closeSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionMode } from '@tether/shared';
import type { HeadlessContext, HeadlessTransport } from '../headless-transport.ts';
import type { LaunchPlan } from '../launch-plan.ts';
import { createAcpTransport } from '../acp/transport.ts';
import { userGeminiDir } from './home.ts';
import { waitOutLoadMinute } from './load-minute.ts';

const APPROVAL_MODE: Partial<Record<PermissionMode, string>> = { acceptEdits: 'auto_edit', bypassPermissions: 'yolo', plan: 'plan' };
/** A session file's header line is short (id, project hash, times, kind). */
const HEADER_BYTES = 4_096;

export function createGeminiHeadless(context: HeadlessContext): HeadlessTransport {
  return createAcpTransport(context, {
    name: 'gemini',
    args: geminiAcpArgs,
    transcript: ({ sessionId, env }) => findGeminiSession({ env, sessionId }),
    beforeLoad: ({ sessionId, env, log }) => waitOutLoadMinute({ path: findGeminiSession({ env, sessionId }), log }),
  });
}

/** `gemini --acp` with the user's flags: their resume goes by session/load, their mode by flag. */
export function geminiAcpArgs(plan: LaunchPlan): string[] {
  const args: string[] = [];
  for (let i = 0; i < plan.args.length; i++) {
    const arg = plan.args[i]!;
    if (arg === '-r' || arg === '--resume') {
      i++;
      continue;
    }
    if (arg.startsWith('--resume=')) continue;
    args.push(arg);
  }
  const mode = APPROVAL_MODE[plan.permissionMode];
  return ['--acp', ...args, ...(mode ? ['--approval-mode', mode] : [])];
}

function headerOf(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const read = readSync(fd, buffer, 0, HEADER_BYTES, 0);
    return buffer.subarray(0, read).toString('utf8').split('\n')[0] ?? '';
  } finally {
    closeSync(fd);
  }
}

/** The session file of `sessionId` under the user's `~/.gemini/tmp/<project>/chats/` (the newest
 *  when several name it), or null. */
export function findGeminiSession(o: { env: NodeJS.ProcessEnv; sessionId: string }): string | null {
  const tmp = join(userGeminiDir(o.env), 'tmp');
  if (!existsSync(tmp)) return null;
  const suffix = `-${o.sessionId.slice(0, 8)}.jsonl`;
  const found: Array<{ path: string; mtime: number }> = [];
  for (const project of readdirSync(tmp)) {
    const chats = join(tmp, project, 'chats');
    if (!existsSync(chats)) continue;
    for (const name of readdirSync(chats)) {
      if (!name.startsWith('session-') || !name.endsWith(suffix)) continue;
      const path = join(chats, name);
      try {
        const header = JSON.parse(headerOf(path)) as { sessionId?: unknown };
        if (header.sessionId === o.sessionId) found.push({ path: realpathSync(path), mtime: statSync(path).mtimeMs });
      } catch {
        // Not a session file of Gemini's, or being written: not this one.
      }
    }
  }
  return found.sort((a, b) => b.mtime - a.mtime)[0]?.path ?? null;
}
