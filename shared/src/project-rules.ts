// project-rules.ts: approvals that become rules (issue 42, item 4). When a person allowed the same
// call from afar three times in one folder of one machine, the hub proposes the narrowest rule that
// covers it; once the person accepts, the agent writes it into the project's own rule file (claude:
// the PermissionRequest answer's `updatedPermissions`, destination `localSettings`, which is
// `<folder>/.claude/settings.local.json`), so the desk behaves as the plain agent with that rule.
//
//   phone allows (approval:answer) ─► hub counts (machine, folder, exact call) ─3rd─► proposed
//   phone / `tether rules accept` ─rules:accept─► accepted ─rules:sync─► the folder's runners
//   the next matching call ─► runner answers it: allow + the rule ─► the agent writes it ─rules:report─► written
//   `tether rules revoke` / the accepting device revoked ─► revoked ─rules:sync─► runner removes exactly its entry
//
// Invariants: only a simple command is proposed (no shell operators, wildcards, quotes or paths out
// of the folder: what the rule allows is then exactly that string, or a prefix the person picked);
// never `*`; nothing is written before the person's yes; a session whose machine the hub cannot
// vouch for counts nothing (two machines may share a path).
import { z } from 'zod';
import { MachineIdSchema, SessionIdSchema, TimestampSchema } from './ids.ts';
import { MAX_LABEL_CHARS, MAX_PATH_CHARS } from './limits.ts';
import { UUID_PATTERN } from './wire.ts';
import { prefixChoices } from './rule-words.ts';

// What a proposal says to the person, without zod (the web's list loads it without the schemas).
export { prefixChoices, ruleCaveat } from './rule-words.ts';

/** Allows of one call from afar before a rule is proposed. */
export const RULE_PROPOSAL_ALLOWS = 3;
/** Calls a rule record keeps to show what it covers. */
export const RULE_CALLS_KEPT = 20;
/** Longest command a rule is proposed for. */
export const RULE_COMMAND_CHARS = 500;

export const RuleIdSchema = z.string().regex(UUID_PATTERN, 'rule id must be a UUID');

/** counting: allows seen, fewer than RULE_PROPOSAL_ALLOWS (never listed). proposed: waits for the
 *  person. accepted: the next matching call writes it. written: the agent wrote it. revoked: the
 *  person said no, revoked it, or the device that accepted it was revoked (`removedAt` once the
 *  entry is gone from the file). */
export const RuleStatusSchema = z.enum(['counting', 'proposed', 'accepted', 'written', 'revoked']);
export type RuleStatus = z.infer<typeof RuleStatusSchema>;

const CommandSchema = z.string().min(1).max(RULE_COMMAND_CHARS);

/** One call a person allowed, as the rule lists it. */
export const RuleCallSchema = z.object({ command: CommandSchema, sessionId: SessionIdSchema, at: TimestampSchema });
export type RuleCall = z.infer<typeof RuleCallSchema>;
export const RuleCallsSchema = z.array(RuleCallSchema).max(RULE_CALLS_KEPT);

export const ProjectRuleSchema = z.object({
  id: RuleIdSchema,
  machineId: MachineIdSchema,
  folder: z.string().min(1).max(MAX_PATH_CHARS),
  /** The agent's tool the rule is for (claude's `Bash`). */
  toolName: z.string().min(1).max(100),
  /** The call that was allowed again and again. */
  command: CommandSchema,
  /** What the rule says: the command itself, or `<prefix>:*` when the person picked a prefix. */
  ruleContent: z.string().min(1).max(RULE_COMMAND_CHARS + 2),
  allows: z.number().int().min(0),
  calls: RuleCallsSchema,
  status: RuleStatusSchema,
  /** Why the agent could not write or remove it the last time (a link, a file that is not JSON). */
  error: z.string().max(1000).nullable(),
  proposedAt: TimestampSchema.nullable(),
  acceptedAt: TimestampSchema.nullable(),
  /** Who accepted it (the token's label) and from which device. */
  acceptedBy: z.string().max(MAX_LABEL_CHARS).nullable(),
  acceptedDevice: z.string().max(MAX_LABEL_CHARS).nullable(),
  writtenAt: TimestampSchema.nullable(),
  revokedAt: TimestampSchema.nullable(),
  removedAt: TimestampSchema.nullable(),
});
export type ProjectRule = z.infer<typeof ProjectRuleSchema>;

/** Web → hub. `prefix`: the person picked a prefix rule (one of prefixChoices(command)). */
export const RuleAcceptSchema = z.object({ ruleId: RuleIdSchema, prefix: z.string().min(1).max(RULE_COMMAND_CHARS).optional() });
export const RuleRevokeSchema = z.object({ ruleId: RuleIdSchema });
export const RuleListSchema = z.object({});

/** A rule as a runner or a daemon acts on it: its id, the agent's tool, what the rule says. */
const RuleEntrySchema = z.object({ id: RuleIdSchema, toolName: z.string().min(1).max(100), ruleContent: z.string().min(1).max(RULE_COMMAND_CHARS + 2) });

/** Hub → runner: the rules of its folder it has work for (write on the next matching call, or remove). */
export const RuleSyncSchema = z.object({
  sessionId: SessionIdSchema,
  rules: z
    .array(RuleEntrySchema.extend({ action: z.enum(['write', 'remove']) }))
    .max(500),
});
export type RuleSync = z.infer<typeof RuleSyncSchema>;

/** Hub → daemon: revoked rules still in `<folder>`'s rule file while no runner of that folder is
 *  connected (a device revoked, a revoke with no session there). The daemon takes out exactly
 *  these entries, through each agent's own rule file code; the folder is an absolute path. */
export const DaemonRulesRemoveSchema = z.object({
  folder: z
    .string()
    .min(1)
    .max(MAX_PATH_CHARS)
    .refine((folder) => folder.startsWith('/') && !folder.includes('\0') && !folder.split('/').some((part) => part === '..' || part === '.'), 'the folder must be an absolute path without . or ..'),
  rules: z.array(RuleEntrySchema).min(1).max(500),
});
export type DaemonRulesRemove = z.infer<typeof DaemonRulesRemoveSchema>;
/** Per rule: `removed` its entry was taken out, `absent` it was not there (both: the file no longer
 *  has it), `failed` the file was not touched (a link, not JSON: `error` says why). */
export const DaemonRulesRemoveAckSchema = z.object({
  rules: z.array(z.object({ id: RuleIdSchema, outcome: z.enum(['removed', 'absent', 'failed']), error: z.string().max(1000).nullable() })).max(500),
});
export type DaemonRulesRemoveAck = z.infer<typeof DaemonRulesRemoveAckSchema>;

/** Runner → hub: what became of a rule in its folder. */
export const RuleReportSchema = z.object({
  sessionId: SessionIdSchema,
  ruleId: RuleIdSchema,
  outcome: z.enum(['written', 'removed', 'failed']),
  error: z.string().max(1000).nullable().default(null),
});
export type RuleReport = z.input<typeof RuleReportSchema>;

/** Characters a proposable command never has: shell operators, redirections, substitutions,
 *  globs and wildcards (claude reads `*` in a rule as one), quotes and escapes, `~`, newlines. What
 *  is left is words a rule matches literally. */
const UNSAFE = /[*?()[\]{}<>|;&$`\\!#~"'\n\r\t]/;

/** Whether a call may become a rule in `folder`, and why not. */
export function proposalProblem(options: { toolName: string; command: string; folder: string }): string | null {
  const { command, folder } = options;
  if (options.toolName !== 'Bash') return 'only a Bash command becomes a rule';
  const trimmed = command.trim();
  if (!trimmed || trimmed !== command) return 'an empty command, or one with space around it';
  if (command.length > RULE_COMMAND_CHARS) return 'a command too long to be a rule';
  if (UNSAFE.test(command)) return 'a command with shell operators, quotes, wildcards or substitutions is never a rule';
  const outside = command.split(/\s+/).find((word) => pathLeaves({ word, folder }));
  return outside ? `it names ${outside}, outside the project folder` : null;
}

/** A word that is a path (or `--opt=path`) reaching out of `folder`: absolute elsewhere, or `..` past it. */
function pathLeaves(options: { word: string; folder: string }): boolean {
  const path = options.word.includes('=') ? options.word.slice(options.word.indexOf('=') + 1) : options.word;
  const root = options.folder.replace(/\/+$/, '');
  if (path.startsWith('/')) return !(normalize(path) === root || normalize(path).startsWith(`${root}/`));
  if (!path.split('/').includes('..')) return false;
  const resolved = normalize(`${root}/${path}`);
  return !(resolved === root || resolved.startsWith(`${root}/`));
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** The rule's content for a command, or for the prefix the person picked (null: not one of its prefixes). */
export function ruleContentFor(options: { command: string; prefix?: string | undefined }): string | null {
  if (options.prefix === undefined) return options.command;
  return prefixChoices(options.command).includes(options.prefix) ? `${options.prefix}:*` : null;
}

/** Whether a rule covers a call, as claude reads it: the exact command, or `<prefix>:*` for the
 *  prefix alone or followed by a space. */
export function ruleCovers(options: { ruleContent: string; command: string }): boolean {
  const { ruleContent, command } = options;
  if (!ruleContent.endsWith(':*')) return ruleContent === command;
  const prefix = ruleContent.slice(0, -2);
  return command === prefix || command.startsWith(`${prefix} `);
}
