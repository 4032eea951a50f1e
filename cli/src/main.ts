// main.ts: the process edge: argv in, exit code out. The verbs and their help live in commands/.
import { CommandError } from './commands/command.ts';
import { loadVerb, tetherHelp, verbHelp } from './commands/verbs.ts';
import pkg from '../package.json' with { type: 'json' };

async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (!verb || verb === '--help' || verb === '-h' || verb === 'help') {
    console.log(await tetherHelp(pkg.version));
    return 0;
  }
  if (verb === '--version' || verb === '-v') {
    const { versionLine } = await import('./config/build.ts');
    console.log(versionLine(pkg.version));
    return 0;
  }
  const command = await loadVerb(verb);
  if (!command) throw new CommandError(`unknown verb "${verb}"; run tether --help`, 2);
  if (rest[0] === '--help' || rest[0] === '-h') {
    console.log(verbHelp(command));
    return 0;
  }
  if (command.startEnv) {
    const { execWithStartEnv, START_ENV } = await import('./runtime/start-env.ts');
    execWithStartEnv(START_ENV[command.startEnv]);
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
