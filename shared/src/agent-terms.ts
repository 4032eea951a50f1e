// agent-terms.ts: the words a session and an agent's capabilities (agent-capabilities.ts) both use,
// kept apart so that session.ts can carry a capabilities record without an import cycle.
// session.ts re-exports them; import them from there (or the package).
import { z } from 'zod';
import { AGENT_KINDS, EFFORT_LEVELS, LAUNCH_KINDS } from './wire.ts';
export { DEFAULT_AGENT } from './wire.ts';

export const LaunchKindSchema = z.enum(LAUNCH_KINDS);
export type LaunchKind = z.infer<typeof LaunchKindSchema>;

/** The coding agent a session runs: its CLI at the desk, its transcript on the hub (the names:
 *  wire.ts AGENT_KINDS). */
export const AgentKindSchema = z.enum(AGENT_KINDS);
export type AgentKind = z.infer<typeof AgentKindSchema>;

export const PermissionModeSchema = z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk', 'auto']);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

/** The protocol's effort levels (an agent takes some of them: its capabilities say which). */
export const EffortLevelSchema = z.enum(EFFORT_LEVELS);
