// setting.ts: the shape `tether effort`, `tether model` and `tether mode` share: `<verb> <session>`
// reads the session's setting from the hub, `<verb> <session> VALUE` asks for a change exactly as the
// phone does (the same socket event, so the runner's rules apply: what the agent offers, what the
// session was started allowing). Each verb says only what differs: its words, how a value is checked
// here, and which event carries it.
import { SessionDetailSchema, type Session, type WebPayload } from '@tether/shared';
import { CommandError, parseFlags, sessionArgument, type Command } from './command.ts';
import { connectAsPhone, getHubJson, requireCredentials } from './hub-access.ts';

type SetEvent = 'session:set-effort' | 'session:set-model' | 'session:set-mode';

export type SettingSpec<T extends string> = {
  name: string;
  summary: string;
  /** What VALUE stands for in the usage line. */
  values: string;
  /** The setting as the hub knows it; null: not known yet. */
  read: (session: Session) => string | null | undefined;
  /** The value to send, or why it is refused before anything is asked. */
  parse: (wanted: string) => { ok: true; value: T } | { ok: false; error: string };
  event: SetEvent;
  payload: (sessionId: string, value: T) => WebPayload<SetEvent>;
  /** What the person reads once the hub took the request. */
  asked: (value: T) => string;
};

export function settingCommand<T extends string>(spec: SettingSpec<T>): Command {
  const usage = `tether ${spec.name} <session> [${spec.values}] [--json]`;
  return {
    name: spec.name,
    summary: spec.summary,
    usage,
    async run(args) {
      const { flags, positionals } = parseFlags({ args, booleans: ['json'] });
      const sessionId = sessionArgument({ positionals, usage, most: 2 });
      const wanted = positionals[1];
      const creds = requireCredentials();
      if (wanted === undefined) {
        const { session } = await getHubJson({ creds, path: `/api/sessions/${sessionId}`, schema: SessionDetailSchema, what: 'a session' });
        const value = spec.read(session) ?? null;
        if (flags.json) process.stdout.write(`${JSON.stringify({ sessionId, [spec.name]: value })}\n`);
        else process.stdout.write(`${value ?? 'not known yet (the agent has not shown it)'}\n`);
        return 0;
      }
      const parsed = spec.parse(wanted);
      if (!parsed.ok) throw new CommandError(parsed.error, 2);
      const client = await connectAsPhone({ creds, device: `tether ${spec.name}` });
      try {
        const ack = await client.request(spec.event, spec.payload(sessionId, parsed.value));
        if (!ack.ok) throw new CommandError(`${spec.name} not changed: ${ack.error}`);
        if (flags.json) process.stdout.write(`${JSON.stringify({ sessionId, requested: parsed.value })}\n`);
        else process.stdout.write(`${spec.asked(parsed.value)}\n`);
        return 0;
      } finally {
        client.close();
      }
    },
  };
}
