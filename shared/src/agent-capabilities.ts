// agent-capabilities.ts: what the phone may do with a session of an agent, as that agent's room in
// the CLI states it (cli/src/agents/<agent>/capabilities.ts). The runner sends it with
// session:register, the daemon advertises one per installed agent with its machine, the hub stores
// the session's and decides set-model / set-effort / set-mode from it, and the web draws its pickers,
// start form and "resume at the desk" hint from it. Nothing past the CLI's agent rooms names an agent
// to decide what it can do (tests/architecture.test.ts). It comes from a runner: every field bounded.
import { z } from 'zod';
import { EffortLevelSchema, LaunchKindSchema, PermissionModeSchema } from './agent-terms.ts';
import { RequestKindSchema } from './approvals.ts';
import { BackgroundIdSchema } from './ids.ts';

/** The launch kinds in which the phone may switch a setting (empty: never). */
const SwitchableIn = z.array(LaunchKindSchema).max(2);
const ModelName = z.string().min(1).max(100);

export const AgentCapabilitiesSchema = z
  .object({
    /** How people call it ("Codex"), in sentences and the new-session form. */
    displayName: z.string().min(1).max(40),
    /** One line under its name in the new-session form ("OpenAI · the codex CLI"). */
    description: z.string().max(120).default(''),
    models: z
      .object({
        /** Names offered as buttons (claude's aliases; none: only a typed name). */
        offered: z.array(ModelName).max(20),
        /** A typed model name is taken too. */
        typed: z.boolean(),
        /** An example typed name for the field's placeholder. */
        example: ModelName.nullable(),
        switchableIn: SwitchableIn,
      })
      .strict(),
    effort: z
      .object({
        /** Its levels, lowest first, in the protocol's words. */
        levels: z.array(EffortLevelSchema).max(10),
        /** A level it lacks → the one it is asked for instead (Codex: max → xhigh, its highest). */
        maps: z.partialRecord(EffortLevelSchema, EffortLevelSchema).default({}),
        switchableIn: SwitchableIn,
      })
      .strict(),
    modes: z
      .object({
        /** The permission modes a session may start in from the phone and switch between (none:
         *  the agent has no modes tether drives). */
        values: z.array(PermissionModeSchema).max(10),
        switchableIn: SwitchableIn,
      })
      .strict(),
    /** The command that resumes one of its sessions at a desk, `{id}` standing for the agent's
     *  session id (`tether codex resume {id}`). */
    resumeCommand: z.string().max(200).regex(/\{id\}/, 'names {id}'),
    /** Its room starts it read-only in its own terms when asked (a reviewer, reviews.ts). Absent
     *  (an older runner or daemon): never started as a reviewer, since it would run unrestricted. */
    readOnly: z.boolean().optional(),
    /** The launch kinds it runs read-only in (Gemini: headless only, in its own plan mode). Absent:
     *  every kind it has. */
    readOnlyIn: SwitchableIn.optional(),
    /** Set on a session tether attached to rather than started (a claude background session): it
     *  runs without tether's hooks, so only what its screen draws reaches the phone, as dialogs;
     *  `note` is what the session says about that ("adopted: no hook approvals"). */
    adopted: z
      .object({
        backgroundId: BackgroundIdSchema,
        note: z.string().min(1).max(200),
        /** Its runner stops it in the agent's pool when the phone asks (SessionStop.stopInPool).
         *  Absent (an older runner): only a detach from the phone. */
        stop: z.boolean().optional(),
      })
      .strict()
      .optional(),
    /** Whether its room continues a conversation as a new one of its own, leaving the old as it was
     *  (claude's --fork-session), and why not when it cannot. Absent (an older runner or daemon): no fork. */
    fork: z.object({ supported: z.boolean(), reason: z.string().max(300).nullable() }).strict().optional(),
    /** The launch kinds in which it waits at its usage limit and goes on by itself at the reset
     *  (usage-limit.ts): tether then only tells the person. Absent: never (tether continues it when
     *  the person chose so). */
    waitsOutLimitIn: SwitchableIn.optional(),
    relays: z
      .object({
        /** The requests it can put to the phone. */
        requests: z.array(RequestKindSchema).max(10),
        /** An allow may carry an edited input (Codex's hook fails that closed: false). */
        editedInput: z.boolean(),
        /** An allow may add a session rule. */
        sessionRules: z.boolean(),
        /** Its room writes a rule the person accepted into the project's own rule file, the same
         *  file the plain agent reads (project-rules.ts). Absent (an older runner, or an agent
         *  without such a file): no rule is proposed from its approvals. */
        projectRules: z.boolean().optional(),
      })
      .strict(),
  })
  .strict();
export type AgentCapabilities = z.infer<typeof AgentCapabilitiesSchema>;
export type AgentCapabilitiesInput = z.input<typeof AgentCapabilitiesSchema>;

export { agentDisplayName, canSwitch, effortFor, resumeAtDesk, type Switch } from './wire.ts';
