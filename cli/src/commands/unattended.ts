// unattended.ts: `tether unattended [--json]`, `tether unattended pause|resume`, `tether unattended
// cap N`, `tether unattended continue on|off [--prompt TEXT]`: the namespace's guard on work that runs
// with nobody at the desk (schedules, usage-limit continues) and its continue-at-reset default for
// sessions with no choice of their own (shared unattended.ts), read and changed exactly as the phone
// does (/web unattended:*).
import { MAX_UNATTENDED_DAILY_CAP, UnattendedSetSchema, runsToday, type UnattendedGuard, type UnattendedSet } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { connectAsPhone, requireCredentials } from './hub-access.ts';

type Request = { kind: 'show' } | { kind: 'set'; change: UnattendedSet } | { kind: 'error'; error: string };

/** `continue on|off [--prompt TEXT]`, checked as the hub checks it (the prompt as a session's own). */
function continueRequest(value: string | undefined, prompt: string | undefined): Request {
  if (value !== 'on' && value !== 'off') return { kind: 'error', error: 'usage: tether unattended continue on|off [--prompt TEXT]' };
  const parsed = UnattendedSetSchema.safeParse({ limitContinue: { on: value === 'on', ...(prompt !== undefined ? { prompt } : {}) } });
  if (!parsed.success) return { kind: 'error', error: 'the prompt is 1 to 2000 characters, not blank' };
  return { kind: 'set', change: parsed.data };
}

/** What the words ask for: the guard as it is, or a change; an error in words otherwise. */
export function unattendedRequest(positionals: readonly string[], flags: { prompt?: string } = {}): Request {
  const [action, value, extra] = positionals;
  if (flags.prompt !== undefined && action !== 'continue') return { kind: 'error', error: '--prompt goes with `tether unattended continue on|off`' };
  if (action === undefined) return { kind: 'show' };
  if (action === 'continue' && extra === undefined) return continueRequest(value, flags.prompt);
  if ((action === 'pause' || action === 'resume') && value === undefined) return { kind: 'set', change: { paused: action === 'pause' } };
  if (action === 'cap' && extra === undefined && value !== undefined) {
    const cap = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isInteger(cap) && cap <= MAX_UNATTENDED_DAILY_CAP) return { kind: 'set', change: { dailyCap: cap } };
    return { kind: 'error', error: `the cap is a whole number from 0 (nothing runs unattended) to ${MAX_UNATTENDED_DAILY_CAP}, not "${value}"` };
  }
  return { kind: 'error', error: `usage: ${command.usage.split('\n')[0]}` };
}

/** The guard in one line, as the phone says it. */
export function describeGuard(guard: UnattendedGuard, now: number): string {
  const state = guard.paused ? 'paused: no schedule runs and no usage-limit continue until resumed' : 'running';
  const byDefault = guard.limitContinue.on ? `sessions with no choice of their own are continued at a usage limit's reset with “${guard.limitContinue.prompt}”` : "sessions with no choice of their own are not continued at a usage limit's reset";
  return `unattended work ${state}; ${runsToday(guard, now)} of ${guard.dailyCap} runs today (UTC); ${byDefault}`;
}

const command: Command = {
  name: 'unattended',
  summary: 'the guard on work that runs while you are away (schedules, limit continues): pause it all, cap it per day',
  usage:
    'tether unattended [--json] | tether unattended pause | tether unattended resume | tether unattended cap N | tether unattended continue on|off [--prompt TEXT]\n' +
    '  pause    no schedule runs and no usage-limit continue until resume (each one stopped is recorded and told)\n' +
    '  cap N    at most N unattended runs a day (UTC; 0: none)\n' +
    "  continue on|off  continue a session with no choice of its own at its usage limit's reset (a session's own choice wins);\n" +
    '           --prompt TEXT: what is sent then ("continue" until changed)',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json'], strings: ['prompt'] });
    const request = unattendedRequest(positionals, flags);
    if (request.kind === 'error') throw new CommandError(request.error, 2);
    const client = await connectAsPhone({ creds: requireCredentials(), device: 'tether unattended' });
    try {
      const ack = request.kind === 'show' ? await client.request('unattended:get', {}) : await client.request('unattended:set', request.change);
      if (!ack.ok) throw new CommandError(`hub refused: ${ack.error}`);
      process.stdout.write(`${flags.json ? JSON.stringify({ guard: ack.guard }) : describeGuard(ack.guard, Date.now())}\n`);
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
