// agent-terms.ts: the words a session and an agent's capabilities (agent-capabilities.ts) both use,
// kept apart so that session.ts can carry a capabilities record without an import cycle.
// session.ts re-exports them; import them from there (or the package).
import { z } from 'zod';
import { EFFORT_LEVELS } from './wire.ts';
export { DEFAULT_AGENT } from './wire.ts';

export const LaunchKindSchema = z.enum(['pty', 'headless']);
export type LaunchKind = z.infer<typeof LaunchKindSchema>;

/** The coding agent a session runs: its CLI at the desk, its transcript on the hub. Adding an agent
 *  adds its name here; what it can do travels as its capabilities, never as this name. */
export const AgentKindSchema = z.enum(['claude', 'codex', 'gemini']);
export type AgentKind = z.infer<typeof AgentKindSchema>;

export const PermissionModeSchema = z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk', 'auto']);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

/** The protocol's effort levels (an agent takes some of them: its capabilities say which). */
export const EffortLevelSchema = z.enum(EFFORT_LEVELS);
