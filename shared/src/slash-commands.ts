// slash-commands.ts: the commands a session's claude takes after `/`, as the runner found them, so
// that the phone's composer can list them (with what each does) when its text starts with `/`.
// A headless runner reports what claude itself answered to stream-json `initialize` (its
// `commands`); a PTY runner reports claude's built-ins for its version (kept as data in the runner)
// plus the user's and the project's `.claude/commands` and skills read from disk.
import { z } from 'zod';
import { SessionIdSchema, TimestampSchema } from './ids.ts';

/** More than claude ships (~80) plus a large project's own; a list past this is cut, not refused. */
export const MAX_SLASH_COMMANDS = 400;

export const SlashCommandSourceSchema = z.enum([
  'builtin', // claude's own (incl. the skills it bundles)
  'project', // <cwd>/.claude/commands, <cwd>/.claude/skills
  'user', // ~/.claude/commands, ~/.claude/skills
  'plugin',
  'claude', // claude named it (headless) without saying where it comes from
]);
export type SlashCommandSource = z.infer<typeof SlashCommandSourceSchema>;

export const SlashCommandSchema = z.object({
  /** Without the slash: `model`, `review`, `frontend:lint` (a command in a sub-folder). */
  name: z.string().min(1).max(100).regex(/^[^\s/][^\s]*$/, 'a command name has no spaces and no leading slash'),
  description: z.string().max(500).default(''),
  /** What goes after the name, as claude shows it (`[model]`, `<instruction>`). */
  argumentHint: z.string().max(200).default(''),
  source: SlashCommandSourceSchema,
  /** In a PTY session this opens one of claude's own pickers or screens (e.g. /model, /config,
   *  /resume without arguments): it is answered in the terminal, not in the chat. */
  opensPicker: z.boolean().default(false),
});
export type SlashCommand = z.infer<typeof SlashCommandSchema>;
export type SlashCommandInput = z.input<typeof SlashCommandSchema>;

/** Runner → hub (`session:commands`): the whole list, replacing the one before. */
export const SessionCommandsSchema = z.object({
  sessionId: SessionIdSchema,
  commands: z.array(SlashCommandSchema).max(MAX_SLASH_COMMANDS),
});
export type SessionCommandsReport = z.input<typeof SessionCommandsSchema>;

/** `GET /api/sessions/:id/commands`: empty until the runner reported (`reportedAt` null). */
export type SessionCommands = { commands: SlashCommand[]; reportedAt: number | null };
export const SessionCommandsBodySchema = z.object({ commands: z.array(SlashCommandSchema), reportedAt: TimestampSchema.nullable() });
