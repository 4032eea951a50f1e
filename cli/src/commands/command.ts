// command.ts: the shape every verb file exports. main.ts loads verbs lazily by name, so
// `tether hook` (run on every tool call) never pays for loading the hub or the runner.

export type Command = {
  name: string;
  summary: string;
  usage: string;
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

/** Minimal flag parser: `--name value`, `--name=value`, boolean `--flag`; the rest are positionals.
 *  `booleans` lists flags that take no value. Unknown flags are an error unless `passthrough`. */
export function parseFlags(options: {
  args: string[];
  booleans?: readonly string[];
  strings?: readonly string[];
}): { flags: Record<string, string | boolean>; positionals: string[] } {
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const booleans = new Set(options.booleans ?? []);
  const strings = new Set(options.strings ?? []);
  const args = options.args;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (booleans.has(name)) {
      if (eq !== -1) throw new CommandError(`--${name} takes no value`);
      flags[name] = true;
    } else if (strings.has(name)) {
      const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined) throw new CommandError(`--${name} needs a value`);
      flags[name] = value;
    } else {
      throw new CommandError(`unknown flag --${name}`);
    }
  }
  return { flags, positionals };
}
