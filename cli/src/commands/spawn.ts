// spawn.ts: `tether spawn --machine M --dir D [--agent A] [--pty] [--model X] [--permission-mode P]
// [--create-dir] [--worktree BRANCH] [--json]`: start a session on a machine, exactly as the phone's
// new-session form does (--agent: claude, codex or gemini, one the machine's daemon found; --worktree:
// in a new git worktree of D's repository, on the new branch BRANCH). Prints the session id once the
// agent is ready; exits non-zero with the reason when it is not.
import { AgentKindSchema, branchNameProblem, MachineListSchema, PermissionModeSchema } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { connectAsPhone, getHubJson, requireCredentials } from './hub-access.ts';

const command: Command = {
  name: 'spawn',
  summary: 'start a session on a machine: claude, Codex or Gemini CLI (headless by default, --pty for the TUI)',
  usage: `tether spawn --machine M --dir D [--agent ${AgentKindSchema.options.join('|')} (default claude)] [--pty] [--model X] [--permission-mode P] [--create-dir] [--worktree BRANCH] [--json]`,
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['pty', 'json', 'create-dir'], strings: ['machine', 'dir', 'agent', 'model', 'permission-mode', 'worktree'] });
    if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"; usage: ${command.usage}`, 2);
    if (typeof flags.machine !== 'string' || typeof flags.dir !== 'string') throw new CommandError(`usage: ${command.usage}`, 2);
    const agent = flags.agent === undefined ? null : AgentKindSchema.safeParse(flags.agent);
    if (agent && !agent.success) throw new CommandError(`--agent must be one of ${AgentKindSchema.options.join(', ')}`, 2);
    const mode = flags['permission-mode'];
    if (typeof mode === 'string' && !PermissionModeSchema.safeParse(mode).success) {
      throw new CommandError(`--permission-mode must be one of ${PermissionModeSchema.options.join(', ')}`, 2);
    }
    const branch = flags.worktree;
    const badBranch = typeof branch === 'string' ? branchNameProblem(branch) : null;
    if (badBranch) throw new CommandError(`--worktree: ${badBranch}`, 2);
    const creds = requireCredentials();
    const list = await getHubJson({ creds, path: '/api/machines', schema: MachineListSchema, what: 'a machine list' });
    const { pickMachine, spawnSession } = await import('../web-client/session-control.ts');
    const machine = pickMachine(list.machines, flags.machine);
    if (typeof machine === 'string') throw new CommandError(machine);
    const client = await connectAsPhone({ creds, device: 'tether spawn' });
    try {
      const ack = await spawnSession(client, {
        machineId: machine.id,
        cwd: flags.dir,
        launchKind: flags.pty ? 'pty' : 'headless',
        ...(agent?.success ? { agent: agent.data } : {}),
        createDir: flags['create-dir'] === true,
        ...(typeof flags.model === 'string' ? { model: flags.model } : {}),
        ...(typeof mode === 'string' ? { permissionMode: PermissionModeSchema.parse(mode) } : {}),
        ...(typeof branch === 'string' ? { worktree: { branch } } : {}),
      });
      if (!ack.ok) {
        if (flags.json) process.stdout.write(`${JSON.stringify({ ok: false, code: ack.code, reason: ack.reason ?? null, error: ack.error })}\n`);
        throw new CommandError(`spawn failed${ack.reason ? ` (${ack.reason})` : ''}: ${ack.error}`);
      }
      const s = ack.session;
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ ok: true, sessionId: s.id, machineId: s.machineId, cwd: s.cwd, launchKind: s.launchKind, status: s.status, agentSessionId: s.agentSessionId, worktree: s.worktree ?? null })}\n`);
      } else {
        process.stdout.write(`${s.id}\n`);
      }
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
