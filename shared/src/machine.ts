// machine.ts: a computer running `tether daemon`, able to start sessions on request.
import { z } from 'zod';
import { MachineIdSchema, TimestampSchema } from './ids.ts';
import { MAX_LABEL_CHARS, MAX_PATH_CHARS } from './limits.ts';
import { AgentKindSchema, DEFAULT_AGENT } from './session.ts';
import { AgentCapabilitiesSchema } from './agent-capabilities.ts';

export const MachineInfoSchema = z.object({
  id: MachineIdSchema,
  name: z.string().min(1).max(MAX_LABEL_CHARS),
  os: z.string().max(100),
  user: z.string().max(200),
  home: z.string().max(MAX_PATH_CHARS),
  /** The daemon was started with --allow-shell (web shells; the hub must allow them too, shell.ts). */
  shell: z.boolean().default(false),
  /** The agents its daemon found installed (a daemon older than Codex support: claude only). */
  agents: z.array(AgentKindSchema).max(8).default([DEFAULT_AGENT]),
  /** What each of those agents can do from the phone (the new-session form's choices); a daemon
   *  older than capabilities sends none, and the form then offers no mode or model shortcuts. */
  capabilities: z.partialRecord(AgentKindSchema, AgentCapabilitiesSchema).default({}),
  /** SHA-256 (hex) of the machine's secret (TETHER_HOME/machine-secret, 0600): a session that
   *  names this machine must prove it with the secret (SessionRegistration.machineProof). A daemon
   *  older than desk sessions sends none. Never shown to a browser. */
  vouch: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  /** The daemon was started with --outside: it finds conversations tether did not run (outside.ts);
   *  the hub switches finding on for the machine (the phone may switch it off again). */
  outside: z.boolean().default(false),
});
export type MachineInfo = z.input<typeof MachineInfoSchema>;

export const MachineSchema = MachineInfoSchema.omit({ vouch: true }).extend({
  /** Finding conversations tether did not run is switched on for this machine (the hub's switch). */
  outside: z.boolean(),
  online: z.boolean(),
  lastSeenAt: TimestampSchema,
});
export type Machine = z.infer<typeof MachineSchema>;
