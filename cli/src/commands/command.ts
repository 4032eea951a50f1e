// command.ts: the shape every verb file exports, its flag reader, the `<session>` argument, and one
// line read from a person. verbs.ts loads verbs lazily, so `tether hook` (run on every tool call)
// never pays for loading the hub or the runner.
import { parseArgs } from 'node:util';
// The zod-free entry: every verb loads this file, `tether hook` on every tool call.
import { isUuid } from '@tether/shared/wire';

export type Command = {
  name: string;
  summary: string;
  usage: string;
  /** A long-lived verb: main.ts re-executes the process with this start-up tuning before it runs
   *  (runtime/start-env.ts). */
  startEnv?: 'server' | 'runner';
  /** Returns the process exit code. Throw `CommandError` for a one-line user-facing failure. */
  run(args: string[]): Promise<number>;
};

/** An expected failure: printed as one line on stderr, no stack trace. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** A verb's flags, read by node's `util.parseArgs`: `--name value`, `--name=value`, boolean `--flag`,
 *  `--` ends the flags; the rest are positionals (a lone "-" is one: stdin). Strict on names: a flag
 *  not listed, long or short, is an error (a word starting with "-" goes after `--`). A string
 *  flag takes the next argument whatever it starts with, as `--reason "-1"` needs. */
export function parseFlags<const B extends string = never, const S extends string = never>(options: {
  args: string[];
  booleans?: readonly B[];
  strings?: readonly S[];
}): { flags: Partial<Record<B, true> & Record<S, string>>; positionals: string[] } {
  const booleans = new Set<string>(options.booleans ?? []);
  const strings = new Set<string>(options.strings ?? []);
  const declared = Object.fromEntries([
    ...[...booleans].map((name) => [name, { type: 'boolean' as const }]),
    ...[...strings].map((name) => [name, { type: 'string' as const }]),
  ]);
  // Not parseArgs' own strict mode: it refuses `--reason -1` and names a flag of a group (-ab) badly.
  const { values, positionals, tokens } = parseArgs({ args: options.args, options: declared, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (booleans.has(token.name)) {
      if (token.value !== undefined) throw new CommandError(`${token.rawName} takes no value`);
    } else if (strings.has(token.name)) {
      if (token.value === undefined) throw new CommandError(`${token.rawName} needs a value`);
    } else {
      throw new CommandError(`unknown flag ${token.rawName}${token.rawName.startsWith('--') ? '' : ' (a word starting with "-" goes after --)'}`);
    }
  }
  return { flags: values as Partial<Record<B, true> & Record<S, string>>, positionals };
}

/** The `<session>` a verb takes first: a usage error without it or with more than `most` words in
 *  all (1 unless the verb takes more after it). */
export function sessionArgument(options: { positionals: string[]; usage: string; most?: number }): string {
  const [sessionId] = options.positionals;
  if (!sessionId || options.positionals.length > (options.most ?? 1)) throw new CommandError(`usage: ${options.usage}`, 2);
  return checkedSessionId(sessionId);
}

/** `value` when it is a session id; otherwise the error that points at `tether sessions`. */
export function checkedSessionId(value: string): string {
  if (!isUuid(value)) throw new CommandError(`"${value}" is not a session id (see tether sessions)`, 2);
  return value;
}

/** One line from stdin (cooked mode), for a verb that asks a person at a terminal; end of input gives "". */
export async function readLine(prompt: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await new Promise<string>((resolve) => {
      rl.once('close', () => resolve(''));
      rl.question(prompt, resolve);
    });
  } finally {
    rl.close();
  }
}
