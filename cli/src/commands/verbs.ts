// verbs.ts: the verb → command table and the help built from it. A verb's name, summary and usage
// live only in its own file; this table names the files. Verbs load lazily, so `tether hook` (run on
// every tool call) never pays for the hub or the runner; only the top-level help loads them all.
import type { Command } from './command.ts';

type Loader = () => Promise<{ default: Command }>;

/** In the order `tether --help` lists them. Literal imports: `bun build --compile` embeds each. */
export const VERBS: Record<string, Loader> = {
  hub: () => import('./hub.ts'),
  token: () => import('./token.ts'),
  pair: () => import('./pair.ts'),
  auth: () => import('./auth.ts'),
  sessions: () => import('./sessions.ts'),
  claude: () => import('./claude.ts'),
  codex: () => import('./codex.ts'),
  gemini: () => import('./gemini.ts'),
  opencode: () => import('./opencode.ts'),
  chat: () => import('./chat.ts'),
  send: () => import('./send.ts'),
  pending: () => import('./pending.ts'),
  answer: () => import('./answer.ts'),
  rules: () => import('./rules.ts'),
  doctor: () => import('./doctor.ts'),
  hook: () => import('./hook.ts'),
  daemon: () => import('./daemon.ts'),
  machines: () => import('./machines.ts'),
  spawn: () => import('./spawn.ts'),
  stop: () => import('./stop.ts'),
  resume: () => import('./resume.ts'),
  adopt: () => import('./adopt.ts'),
  review: () => import('./review.ts'),
  schedule: () => import('./schedule.ts'),
  unattended: () => import('./unattended.ts'),
  model: () => import('./model.ts'),
  mode: () => import('./mode.ts'),
  effort: () => import('./effort.ts'),
  attach: () => import('./attach.ts'),
  relay: () => import('./relay.ts'),
};

/** The verb's command, or null for a name that is no verb. */
export async function loadVerb(name: string): Promise<Command | null> {
  const load = Object.hasOwn(VERBS, name) ? VERBS[name] : undefined;
  return load ? (await load()).default : null;
}

/** `tether <verb> --help`. */
export function verbHelp(command: Command): string {
  return `usage: ${command.usage}\n\n${command.summary}`;
}

/** `tether --help`: one line per verb, each verb's own summary; the usage in the words of how this
 *  tether runs (a checkout's `npm run tether --`, config/build.ts). */
export async function tetherHelp(version: string): Promise<string> {
  const commands = await Promise.all(Object.values(VERBS).map(async (load) => (await load()).default));
  const { typedTether } = await import('../config/build.ts');
  const tether = typedTether();
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [`tether ${version}: run Claude Code, Codex or Gemini CLI here, drive it from anywhere`, '', `usage: ${tether} <verb> [args]`, '', ...lines, '', `${tether} <verb> --help for a verb's flags`].join('\n');
}
