// slash-filter.ts: which of a session's slash commands the composer lists for what is typed after
// `/`, best first: names that start with it, then names that contain it, then descriptions that do.
import type { SlashCommand } from '@tether/shared';

/** The query while the text is a command name being typed (`/`, `/mo`); null otherwise. */
export function slashQuery(text: string): string | null {
  const match = /^\/([^\s/]*)$/.exec(text);
  return match ? match[1]!.toLowerCase() : null;
}

/** The command the text starts with (`/model sonnet` → model), for the "opens a picker" hint. */
export function slashCommandOf(text: string): string | null {
  return /^\/([^\s/]+)(?:\s|$)/.exec(text)?.[1] ?? null;
}

export function filterSlashCommands(commands: readonly SlashCommand[], query: string): SlashCommand[] {
  if (!query) return [...commands];
  const q = query.toLowerCase();
  const starts: SlashCommand[] = [];
  const contains: SlashCommand[] = [];
  const described: SlashCommand[] = [];
  for (const command of commands) {
    const name = command.name.toLowerCase();
    if (name.startsWith(q)) starts.push(command);
    else if (name.includes(q)) contains.push(command);
    else if (command.description.toLowerCase().includes(q)) described.push(command);
  }
  return [...starts, ...contains, ...described];
}
