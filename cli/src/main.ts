// main.ts: the verb → command table. No logic lives here; each verb is loaded only when used.
import { CommandError, type Command } from './commands/command.ts';
import pkg from '../package.json' with { type: 'json' };

const VERBS: Record<string, { summary: string; load: () => Promise<{ default: Command }> }> = {
  hub: { summary: 'run the hub (embedded SQLite under TETHER_HOME)', load: () => import('./commands/hub.ts') },
  token: { summary: 'create, list or revoke access tokens (on the hub machine)', load: () => import('./commands/token.ts') },
  auth: { summary: 'store, show or remove the hub URL and token for this user', load: () => import('./commands/auth.ts') },
  sessions: { summary: 'list sessions', load: () => import('./commands/sessions.ts') },
  claude: { summary: 'run claude in a PTY at this terminal, mirrored to the hub', load: () => import('./commands/claude.ts') },
  chat: { summary: "print a session's chat (--json, --follow)", load: () => import('./commands/chat.ts') },
  send: { summary: 'send a message to a session, as the phone would', load: () => import('./commands/send.ts') },
  pending: { summary: 'list approvals and questions waiting for an answer (--json)', load: () => import('./commands/pending.ts') },
  answer: { summary: 'answer an approval or question: tether answer <request> allow|deny …', load: () => import('./commands/answer.ts') },
  doctor: { summary: 'check claude, versions, hub reachability, token and the hook round trip', load: () => import('./commands/doctor.ts') },
  hook: { summary: 'called by claude; not for people', load: () => import('./commands/hook.ts') },
  daemon: { summary: 'register this machine with the hub and start sessions on request', load: () => import('./commands/daemon.ts') },
  machines: { summary: 'list machines (id, name, online)', load: () => import('./commands/machines.ts') },
  spawn: { summary: 'start a session on a machine (headless by default, --pty for the TUI)', load: () => import('./commands/spawn.ts') },
  stop: { summary: 'stop a session (graceful, then forced)', load: () => import('./commands/stop.ts') },
  resume: { summary: 'resume an ended session on its machine (same chat; --pty for the TUI)', load: () => import('./commands/resume.ts') },
  effort: { summary: "show or change a session's effort level (claude's /effort)", load: () => import('./commands/effort.ts') },
  attach: { summary: 'attach this terminal to a session (Ctrl-] detaches; headless ones resume in a PTY)', load: () => import('./commands/attach.ts') },
};

function help(): string {
  const width = Math.max(...Object.keys(VERBS).map((v) => v.length));
  const lines = Object.entries(VERBS).map(([name, v]) => `  ${name.padEnd(width)}  ${v.summary}`);
  return [`tether ${pkg.version}: run Claude Code here, drive it from anywhere`, '', 'usage: tether <verb> [args]', '', ...lines, '', 'tether <verb> --help for a verb\'s flags'].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (!verb || verb === '--help' || verb === '-h' || verb === 'help') {
    console.log(help());
    return 0;
  }
  if (verb === '--version' || verb === '-v') {
    const { versionLine } = await import('./config/build.ts');
    console.log(versionLine(pkg.version));
    return 0;
  }
  const entry = VERBS[verb];
  if (!entry) throw new CommandError(`unknown verb "${verb}"; run tether --help`, 2);
  const command = (await entry.load()).default;
  if (rest[0] === '--help' || rest[0] === '-h') {
    console.log(`usage: ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`tether: ${message}\n`);
    if (process.env.TETHER_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exitCode = error instanceof CommandError ? error.exitCode : 1;
  },
);
