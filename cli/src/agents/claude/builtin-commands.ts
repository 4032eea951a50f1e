// builtin-commands.ts: claude's own slash commands per version, as data (builtin-commands.json):
// the list claude's TUI draws after `/` (read from its screen, 2.1.197 and 2.1.331, at 200 columns;
// descriptions that name the current model or a state were made generic), and which of them open
// one of claude's own pickers or screens when given no argument (`pickers`, typed at an idle prompt
// and read from the screen: the input box gave way to something else). Headless sessions do not
// need this: claude lists its commands itself in its stream-json `initialize` answer.
import data from './builtin-commands.json' with { type: 'json' };
import { compareVersions } from './version.ts';

export type BuiltinCommand = { name: string; description: string; opensPicker: boolean };

const KNOWN = data as Record<string, { commands: Array<{ name: string; description: string }>; pickers: string[] }>;

/** The list of the newest known version not after `version` (the oldest known when it is older, the
 *  newest when unknown): a command added since is missing until the data is refreshed, never wrong. */
export function builtinSlashCommands(version: string | null): BuiltinCommand[] {
  const versions = Object.keys(KNOWN).sort(compareVersions);
  const pick = version ? (versions.filter((v) => compareVersions(v, version) <= 0).at(-1) ?? versions[0]!) : versions.at(-1)!;
  const entry = KNOWN[pick]!;
  const pickers = new Set(entry.pickers);
  return entry.commands.map((command) => ({ ...command, opensPicker: pickers.has(command.name) }));
}
