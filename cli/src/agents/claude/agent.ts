// agent.ts: claude, as the runner sees it (agents/agent.ts). Everything here is claude's own: its
// binary and environment, `--settings` with tether's hooks, its transcript, its screen, `/model` and
// `/effort`, Shift+Tab through its modes, its plan dialog, its status file and `claude -p`.
import { join } from 'node:path';
import type { AgentCapabilities } from '@tether/shared';
import { agentResumeId, type Agent, type TranscriptRead } from '../agent.ts';
import { compareVersions } from '../version.ts';
import { claudeCapabilities } from './capabilities.ts';
import { listSlashCommands } from './slash-commands.ts';
import { claudeVersions } from './version.ts';
import { buildClaudeEnv, claudeConfigDir } from './env.ts';
import { findClaudeBinary } from './find-binary.ts';
import { buildLaunchArgs } from './launch-args.ts';
import { writeHookSettings } from './hook-settings.ts';
import { claudeScreen } from './screen.ts';
import { footerMode, switchMode } from './mode-switch.ts';
import { confirmPlanDialog } from './plan-dialog.ts';
import { createPtyEnder } from './end-claude.ts';
import { liveClaudeOwner, watchClaudeStatus } from './status-file.ts';
import { isRejectedToolResult, parseTranscriptLines } from './transcript/parse.ts';
import { subagentDirFor } from '../../transcript/subagents.ts';
import { createAnsweredModelReader } from './transcript/answered-model.ts';
import { createLocalCommandReader, modelSetBy } from './transcript/local-commands.ts';
import { createClaudeUsage } from './transcript/usage.ts';
import { createClaudeLimit } from './transcript/usage-limit.ts';
import { createClaudeHeadless } from './headless.ts';
import { claudeBackground } from './background.ts';
import { claudeConversations } from './conversations.ts';
import { claudeRuleFile } from './rule-file.ts';

/** claude waits at a usage limit and goes on by itself in its terminal from this version on (seen
 *  against the fake API); 2.1.197's bundle has no automatic continue at all. */
export const WAITS_OUT_LIMITS_FROM = '2.1.332';

/** claude's capabilities for the version at hand: no waiting out a usage limit before
 *  WAITS_OUT_LIMITS_FROM (an unknown version counts as current). */
export function claudeCapabilitiesOf(version: string | null): AgentCapabilities {
  if (version === null || compareVersions(version, WAITS_OUT_LIMITS_FROM) >= 0) return claudeCapabilities;
  return { ...claudeCapabilities, waitsOutLimitIn: [] };
}

export const claudeAgent: Agent = {
  kind: 'claude',
  conversations: claudeConversations,
  name: 'claude',
  capabilities: claudeCapabilities,
  findBinary: ({ env }) => findClaudeBinary({ env }),
  env: ({ env }) => buildClaudeEnv({ env }),
  plan: (userArgs) => buildLaunchArgs({ userArgs }),
  installHooks: ({ endpoint, permissionHook }) => {
    const settings = writeHookSettings({ endpoint, permissionHook });
    return { args: ['--settings', settings.settingsPath], remove: () => settings.remove() };
  },
  transcript: (options) => {
    const localCommands = createLocalCommandReader();
    const answered = createAnsweredModelReader();
    const usage = createClaudeUsage(options?.usage ?? null);
    const limit = createClaudeLimit();
    return {
      read(lines, context) {
        const messages = parseTranscriptLines(lines, context);
        let planFile: string | null = null;
        for (const line of lines) {
          if (!line.includes('"planFilePath"')) continue;
          try {
            const path = (JSON.parse(line) as { attachment?: { planFilePath?: unknown } }).attachment?.planFilePath;
            if (typeof path === 'string') planFile = path;
          } catch {
            // a malformed line is reported by the parser
          }
        }
        // `/model` typed at the desk or by the queue for the phone: the model is the one claude says
        // it set ("Switch model?" may have kept the old one); each turn then says which model
        // answers, which also catches a switch claude did not write down. The last fact read wins.
        let model: string | null = null;
        const commands: TranscriptRead['commands'] = [];
        for (const line of lines) {
          for (const run of localCommands.take([line])) {
            const set = modelSetBy(run);
            model = set ?? model;
            if (run.name === '/model' && run.args !== '') commands.push({ command: '/model', args: run.args, outcome: set ? 'applied' : 'kept' });
          }
          model = answered.take(line) ?? model;
        }
        const used = usage.take(lines);
        const limited = limit.take(lines);
        return { messages, model, planFile, commands, ...(used ? { usage: used } : {}), ...(limited !== undefined ? { limit: limited } : {}) };
      },
    };
  },
  isRejectedToolResult,
  subagentDir: subagentDirFor,
  screen: claudeScreen,
  modelCommand: (model) => `/model ${model}`,
  effortCommand: (level) => `/effort ${level}`,
  modes: { switchTo: switchMode, current: footerMode },
  confirmPlan: confirmPlanDialog,
  watchStatus: ({ env, pid, sessionId, poll, onChange }) => watchClaudeStatus({ configDir: claudeConfigDir(env), pid, claudeSessionId: sessionId, poll, onChange }),
  endPty: createPtyEnder,
  spawnArgs: ({ model, permissionMode, resumeId, readOnly, addedDirs = [], fork }) => [
    ...(model ? ['--model', model] : []),
    // `--add-dir=<dir>`, one each: the `=` form ends the variadic option (a later argument is never a folder).
    ...addedDirs.map((dir) => `--add-dir=${dir}`),
    // Read-only is claude's plan mode: it reads and plans, and asks before anything else.
    ...(readOnly ? ['--permission-mode', 'plan'] : permissionMode ? ['--permission-mode', permissionMode] : []),
    // `--resume=<id>`: the id is the option's value whatever it holds (agentResumeId checked it).
    ...(resumeId ? [`--resume=${agentResumeId(resumeId)}`, ...(fork ? ['--fork-session'] : [])] : []),
  ],
  slashCommands: ({ binary, env, cwd, tetherHome }) =>
    listSlashCommands({ version: claudeVersions.cached({ bin: binary, cacheFile: join(tetherHome, 'claude-version.json') }), configDir: claudeConfigDir(env), cwd }),
  liveOwner: ({ env, sessionId }) => liveClaudeOwner({ configDir: claudeConfigDir(env), claudeSessionId: sessionId }),
  headless: createClaudeHeadless,
  background: claudeBackground,
  projectRules: claudeRuleFile,
  capabilitiesOf: ({ binary, env, tetherHome }) =>
    claudeCapabilitiesOf(tetherHome ? claudeVersions.cached({ bin: binary, cacheFile: join(tetherHome, 'claude-version.json') }) : claudeVersions.read(binary, { env })),
};
