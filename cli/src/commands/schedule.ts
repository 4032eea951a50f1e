// schedule.ts: `tether schedule`: prompts sent later, once or on a cron (shared schedules.ts), as the
// phone's schedule editor makes them. The hub keeps and fires them; this verb makes, lists and
// removes them.
//   tether schedule <session> (--at TIME | --in DURATION | --cron EXPR [--tz ZONE]) [--skip-missed] "prompt"
//   tether schedule --machine M --dir D [--agent A] [--pty] [--worktree BRANCH] (--at|--in|--cron …) "prompt"
//   tether schedule list [--json]          tether schedule rm <id>
// TIME is a date and time (2026-05-05T09:30, local unless it names its zone) or a time today (09:30);
// DURATION is 90s, 20m, 2h, 1d or a sum of them (1h30m).
import {
  AgentKindSchema,
  branchNameProblem,
  firstRunOf,
  MachineListSchema,
  nextRuns,
  parseCron,
  type Ack,
  type Schedule,
  type ScheduleCreate,
  type ScheduleTarget,
  type ScheduleWhen,
  type WebAcks,
} from '@tether/shared';
import { CommandError, checkedSessionId, parseFlags, type Command } from './command.ts';
import { connectAsPhone, getHubJson, requireCredentials } from './hub-access.ts';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "1h30m" → milliseconds, or null when it is not a duration. */
export function parseDuration(text: string): number | null {
  if (!/^(\d+[smhd])+$/.test(text)) return null;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)([smhd])/g)) total += Number(amount) * UNIT_MS[unit!]!;
  return total;
}

/** "09:30" (today, local) or a date-time Date.parse reads (local when it names no zone). */
export function parseAt(text: string, now: number): number | null {
  const time = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (time) {
    const day = new Date(now);
    day.setHours(Number(time[1]), Number(time[2]), 0, 0);
    return Number(time[1]) < 24 && Number(time[2]) < 60 ? day.getTime() : null;
  }
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}

const localTime = (at: number) => new Date(at).toLocaleString(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });

function whenOf(flags: { at?: string; in?: string; cron?: string; tz?: string }, now: number): ScheduleWhen {
  const given = [flags.at, flags.in, flags.cron].filter((f) => f !== undefined).length;
  if (given !== 1) throw new CommandError('say when: exactly one of --at TIME, --in DURATION or --cron "EXPR"', 2);
  if (flags.cron !== undefined) return { kind: 'cron', expression: flags.cron, timeZone: flags.tz ?? Intl.DateTimeFormat().resolvedOptions().timeZone };
  if (flags.in !== undefined) {
    const ms = parseDuration(flags.in);
    if (ms === null) throw new CommandError(`--in "${flags.in}" is not a duration (90s, 20m, 2h, 1d, 1h30m)`, 2);
    return { kind: 'once', at: now + ms };
  }
  const at = parseAt(flags.at!, now);
  if (at === null) throw new CommandError(`--at "${flags.at}" is not a time (09:30, or 2026-05-05T09:30)`, 2);
  return { kind: 'once', at };
}

async function targetOf(flags: { machine?: string; dir?: string; agent?: string; pty?: true; worktree?: string }, session: string | undefined): Promise<ScheduleTarget> {
  if (session !== undefined) {
    if (flags.machine !== undefined || flags.dir !== undefined) throw new CommandError('name a session, or --machine and --dir for a new one: not both', 2);
    return { kind: 'session', sessionId: checkedSessionId(session) };
  }
  if (flags.machine === undefined || flags.dir === undefined) throw new CommandError(`usage: ${command.usage}`, 2);
  const agent = AgentKindSchema.safeParse(flags.agent ?? 'claude');
  if (!agent.success) throw new CommandError(`--agent must be one of ${AgentKindSchema.options.join(', ')}`, 2);
  const badBranch = flags.worktree !== undefined ? branchNameProblem(flags.worktree) : null;
  if (badBranch) throw new CommandError(`--worktree: ${badBranch}`, 2);
  const list = await getHubJson({ creds: requireCredentials(), path: '/api/machines', schema: MachineListSchema, what: 'a machine list' });
  const { pickMachine } = await import('../web-client/session-control.ts');
  const machine = pickMachine(list.machines, flags.machine);
  if (typeof machine === 'string') throw new CommandError(machine);
  return { kind: 'new', machineId: machine.id, cwd: flags.dir, agent: agent.data, launchKind: flags.pty ? 'pty' : 'headless', ...(flags.worktree ? { worktree: { branch: flags.worktree } } : {}) };
}

/** One line per schedule: id, next run, timing, target, prompt's first line, its last run. */
function describe(s: Schedule): string {
  const when = s.when.kind === 'once' ? `once` : `cron "${s.when.expression}" ${s.when.timeZone}`;
  const next = s.paused ? 'paused' : s.nextRunAt === null ? 'done' : `next ${localTime(s.nextRunAt)}`;
  const target = s.target.kind === 'session' ? `session ${s.target.sessionId}` : `new ${s.target.agent} session in ${s.target.cwd}`;
  const last = s.lastRun ? `; last: ${s.lastRun.outcome}${s.lastRun.missed ? ' (missed)' : ''}${s.lastRun.detail ? ` — ${s.lastRun.detail}` : ''}` : '';
  return `${s.id}  ${next}  ${when}  ${target}  "${s.prompt.split('\n')[0]!.slice(0, 60)}"${last}`;
}

async function ask<E extends 'schedule:create' | 'schedule:list' | 'schedule:remove'>(event: E, payload: unknown): Promise<WebAcks[E]> {
  const client = await connectAsPhone({ creds: requireCredentials(), device: 'tether schedule' });
  try {
    const ack = (await client.socket.timeout(15_000).emitWithAck(event, payload)) as Ack<WebAcks[E]>;
    if (!ack.ok) throw new CommandError(`${event.slice('schedule:'.length)} refused: ${ack.error}`);
    return ack;
  } finally {
    client.close();
  }
}

const command: Command = {
  name: 'schedule',
  summary: 'send a prompt later, once or on a cron, to a session or a new session on a machine; list and remove schedules',
  usage: 'tether schedule <session>|--machine M --dir D [--agent A] [--pty] [--worktree BRANCH] (--at TIME | --in DURATION | --cron "EXPR" [--tz ZONE]) [--skip-missed] "prompt" · tether schedule list [--json] · tether schedule rm <id>',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json', 'pty', 'skip-missed'], strings: ['at', 'in', 'cron', 'tz', 'machine', 'dir', 'agent', 'worktree'] });
    if (positionals[0] === 'list') {
      const { schedules } = await ask('schedule:list', {});
      if (flags.json) process.stdout.write(`${JSON.stringify(schedules)}\n`);
      else process.stdout.write(schedules.length ? `${schedules.map(describe).join('\n')}\n` : 'no schedules\n');
      return 0;
    }
    if (positionals[0] === 'rm') {
      if (positionals.length !== 2) throw new CommandError('usage: tether schedule rm <id>', 2);
      await ask('schedule:remove', { id: checkedSessionId(positionals[1]!) });
      return 0;
    }
    const now = Date.now();
    const when = whenOf(flags, now);
    // Refused here as the hub would refuse it, before anything is sent.
    const first = firstRunOf(when, now);
    if ('error' in first) throw new CommandError(`${flags.cron !== undefined ? '--cron' : 'the time'}: ${first.error}`, 2);
    const prompt = positionals.at(-1);
    const session = positionals.length === 2 ? positionals[0] : undefined;
    if (prompt === undefined || positionals.length > 2 || (positionals.length === 2) === (flags.machine !== undefined)) throw new CommandError(`usage: ${command.usage}`, 2);
    const create: ScheduleCreate = { id: crypto.randomUUID(), target: await targetOf(flags, session), when, prompt, missed: flags['skip-missed'] ? 'skip' : 'run' };
    const { schedule } = await ask('schedule:create', create);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(schedule)}\n`);
      return 0;
    }
    const runs = when.kind === 'cron' ? nextRuns(parseCron(when.expression), { after: now, timeZone: when.timeZone, count: 3 }) : [first.at];
    process.stdout.write(`${schedule.id}\nnext runs: ${runs.map(localTime).join(' · ')}\n`);
    return 0;
  },
};
export default command;
