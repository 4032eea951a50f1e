// events/cli.ts: the `/cli` socket.io namespace, spoken by session runners (and later daemons).
// Runner → hub events carry a payload and take an ack; hub → runner events are commands.
import { z } from 'zod';
import { SessionIdSchema, RequestIdSchema } from '../ids.ts';
import {
  EffortLevelSchema,
  PermissionModeSchema,
  SessionCommandFinishedSchema,
  SessionEndSchema,
  SessionPatchSchema,
  SessionRegistrationSchema,
  type Session,
} from '../session.ts';
import { ChatMessageInputSchema } from '../chat.ts';
import { MAX_MESSAGES_PER_BATCH } from '../limits.ts';
import { PromptStatusUpdateSchema } from '../prompts.ts';
import { AttachmentRefSchema } from '../attachments.ts';
import { SessionCommandsSchema } from '../slash-commands.ts';
import { MAX_ATTACHMENTS_PER_PROMPT } from '../wire.ts';
import { AnswerSchema, DeskAnswerSchema, DialogOutcomeSchema, PendingRequestSchema, type DeskAnswerAck, type Resolution } from '../approvals.ts';
import { TerminalOutputSchema, TerminalSnapshotSchema, TerminalSizeReportSchema, TerminalDeskSchema, ColsSchema, RowsSchema } from '../terminal.ts';
import { MachineInfoSchema } from '../machine.ts';
import { SessionAttentionSchema } from '../notifications.ts';
import { RunnerExitedSchema } from '../spawn.ts';
import { ShellExitSchema, ShellOutputSchema } from '../shell.ts';
import { OutsideIndexSchema } from '../outside.ts';
import { WorkspaceQuerySchema, type WorkspaceAnswer } from '../workspace.ts';
import { GitQuerySchema, type GitAnswer } from '../git-actions.ts';
import { FileWriteQuerySchema, type FileWriteAnswer } from '../file-edits.ts';
import { FilesFindQuerySchema, type FilesFindAnswer } from '../find.ts';
import { RuleReportSchema, RuleSyncSchema } from '../project-rules.ts';
import type { AckFn } from '../protocol.ts';

export const CliEventSchemas = {
  'session:register': SessionRegistrationSchema,
  'session:update': z.object({ sessionId: SessionIdSchema, patch: SessionPatchSchema }),
  'session:end': SessionEndSchema,
  'message:append': z.object({
    sessionId: SessionIdSchema,
    messages: z.array(ChatMessageInputSchema).min(1).max(MAX_MESSAGES_PER_BATCH),
  }),
  'prompt:status': PromptStatusUpdateSchema,
  /** The slash commands this session's claude takes (slash-commands.ts), replacing the last list. */
  'session:commands': SessionCommandsSchema,
  /** claude's Notification hook said a person is needed (notifications.ts); the hub may push. */
  'session:attention': SessionAttentionSchema,
  /** A command typed into claude finished, set or kept (session.ts); republished to the tabs. */
  'session:command-finished': SessionCommandFinishedSchema,
  'approval:request': PendingRequestSchema,
  'approval:withdraw': z.object({
    sessionId: SessionIdSchema,
    requestId: RequestIdSchema,
    reason: z.string().max(1000).default('withdrawn'),
  }),
  /** The desk answered (or took the request to claude's own dialog); first answer wins. */
  'approval:desk-answer': DeskAnswerSchema,
  /** How a request taken to claude's own dialog was decided there (fills the audit). */
  'approval:dialog-outcome': DialogOutcomeSchema,
  'terminal:output': TerminalOutputSchema,
  'terminal:snapshot': TerminalSnapshotSchema,
  'terminal:size': TerminalSizeReportSchema,
  'machine:register': MachineInfoSchema,
  /** Daemon → hub: a runner it started exited (see spawn.ts). */
  'runner:exited': RunnerExitedSchema,
  /** Daemon → hub: output of a web shell (shell.ts); forwarded to that shell's one viewer. */
  'shell:output': ShellOutputSchema,
  /** Daemon → hub: a web shell ended. */
  'shell:exit': ShellExitSchema,
  /** Daemon → hub: the conversations it found that tether did not run (outside.ts). */
  'outside:index': OutsideIndexSchema,
  /** Runner → hub: a rule of its folder was written by the agent, removed, or could not be (project-rules.ts). */
  'rules:report': RuleReportSchema,
} as const;
export type CliEventName = keyof typeof CliEventSchemas;
export type CliPayload<E extends CliEventName> = z.input<(typeof CliEventSchemas)[E]>;

/** What each ack carries on success. */
export type CliAcks = {
  'session:register': { session: Session };
  'session:update': { session: Session };
  'session:end': { session: Session };
  'message:append': { added: number; lastSeq: number };
  'prompt:status': object;
  'session:commands': object;
  'session:attention': object;
  'session:command-finished': object;
  'approval:request': object;
  'approval:withdraw': object;
  'approval:desk-answer': DeskAnswerAck;
  'approval:dialog-outcome': { resolution: Resolution };
  'terminal:output': object;
  'terminal:snapshot': object;
  'terminal:size': object;
  'machine:register': object;
  'runner:exited': object;
  'shell:output': object;
  'shell:exit': object;
  'outside:index': object;
  'rules:report': object;
};

export type CliClientToServer = {
  [E in CliEventName]: (payload: CliPayload<E>, ack: AckFn<CliAcks[E]>) => void;
};

/** Hub → runner commands. */
export const CliCommandSchemas = {
  'prompt:deliver': z.object({
    sessionId: SessionIdSchema,
    promptId: z.string(),
    text: z.string(),
    /** Fetched by the runner from the hub (GET /api/sessions/:id/attachments/:id) before it delivers. */
    attachments: z.array(AttachmentRefSchema).max(MAX_ATTACHMENTS_PER_PROMPT).default([]),
  }),
  'session:abort': z.object({ sessionId: SessionIdSchema }),
  /** `stopInPool`: an attached session's background session is stopped in the agent's pool too
   *  (SessionStop.stopInPool); absent or false: End as the launch kind ends it (attached: detach). */
  'session:stop': z.object({ sessionId: SessionIdSchema, stopInPool: z.boolean().optional() }),
  'session:set-model': z.object({ sessionId: SessionIdSchema, model: z.string().min(1).max(200) }),
  'session:set-effort': z.object({ sessionId: SessionIdSchema, level: EffortLevelSchema }),
  'session:set-mode': z.object({ sessionId: SessionIdSchema, mode: PermissionModeSchema }),
  'approval:answered': z.object({
    sessionId: SessionIdSchema,
    requestId: RequestIdSchema,
    answer: AnswerSchema,
  }),
  /** `desk`: typed at a `tether attach` desk (the session's controller becomes 'desk'). */
  'terminal:input': z.object({ sessionId: SessionIdSchema, data: z.string(), desk: z.boolean().optional() }),
  /** A `tether attach` desk attached (it owns the PTY size) or detached. */
  'terminal:desk': TerminalDeskSchema,
  'terminal:resize': z.object({ sessionId: SessionIdSchema, cols: ColsSchema, rows: RowsSchema }),
  /** How many viewers watch the terminal; with none the runner stops streaming bytes. */
  'terminal:viewers': z.object({ sessionId: SessionIdSchema, count: z.number().int().min(0) }),
  /** A viewer joined whose bytes are gone: send a fresh snapshot. */
  'terminal:snapshot-request': z.object({ sessionId: SessionIdSchema }),
  /** The rules of the session's folder it has work for: write on the next matching call, or remove. */
  'rules:sync': RuleSyncSchema,
} as const;
export type CliCommandName = keyof typeof CliCommandSchemas;

/** Hub → runner questions: acked with the answer (the hub waits, with a timeout). */
export const RunnerQuerySchemas = {
  /** Read the session's working directory: changes against HEAD, a listing, a file (workspace.ts). */
  'workspace:query': WorkspaceQuerySchema,
  /** Stage, unstage, commit, push, open a pull request; or read the index's state (git-actions.ts). */
  'git:action': GitQuerySchema,
  /** Save a person's edit of one text file in the session's folder (file-edits.ts). */
  'file:write': FileWriteQuerySchema,
  /** Find a text in the names and contents of the session's files (find.ts). */
  'find:files': FilesFindQuerySchema,
} as const;
export type RunnerQueryName = keyof typeof RunnerQuerySchemas;
export type RunnerQueryAcks = {
  'workspace:query': WorkspaceAnswer;
  'git:action': GitAnswer;
  'file:write': FileWriteAnswer;
  'find:files': FilesFindAnswer;
};

export type CliServerToClient = {
  [E in CliCommandName]: (payload: z.infer<(typeof CliCommandSchemas)[E]>) => void;
} & {
  [E in RunnerQueryName]: (payload: z.input<(typeof RunnerQuerySchemas)[E]>, ack: AckFn<RunnerQueryAcks[E]>) => void;
};
