// events/hub.ts: what hubs of one cluster say to each other (several hubs behind one URL).
// Two channels: facts every hub hears (socket.io `serverSideEmit` through the PostgreSQL adapter),
// and the `/hub` namespace, where a hub whose phone watches a terminal links to the hub that holds
// the runner (and so the byte log) and carries that viewer's stream with the same offsets.
import { z } from 'zod';
import { NamespaceSchema, SessionIdSchema } from '../ids.ts';
import { SessionSchema } from '../session.ts';
import { RunnerExitedSchema } from '../spawn.ts';
import { ShellIdSchema, ShellOpenSchema } from '../shell.ts';
import {
  BytesSchema,
  ColsSchema,
  OffsetSchema,
  RowsSchema,
  TerminalInputSchema,
  TerminalResizeSchema,
  type TerminalSizeNotice,
  type TerminalSnapshot,
} from '../terminal.ts';

/** A viewer on the linking hub: its /web socket id there (random, unique across hubs). */
const ViewerIdSchema = z.string().min(1).max(64);
const LinkedSchema = z.object({ namespace: NamespaceSchema, sessionId: SessionIdSchema, viewerId: ViewerIdSchema });

/** Facts broadcast to every other hub of the cluster. */
export const ClusterFactSchemas = {
  /** A session:updated this hub broadcast: spawn/stop waits on other hubs settle from it. */
  'session-updated': z.object({ namespace: NamespaceSchema, session: SessionSchema }),
  /** A daemon on this hub saw a runner exit; answered `{ handled }` by the hub that started it. */
  'runner-exited': z.object({ namespace: NamespaceSchema, exit: RunnerExitedSchema }),
  /** A runner registered here: viewers elsewhere move their stream to this hub. */
  'terminal-moved': z.object({ namespace: NamespaceSchema, sessionId: SessionIdSchema, hubUrl: z.string().url() }),
  /** A viewer here opens a web shell on a machine whose daemon is on the hearing hub: that hub
   *  routes the shell's output to this viewer (its /web socket id); answered `{ routed }`. */
  'shell-routed': z.object({
    namespace: NamespaceSchema,
    machineId: ShellOpenSchema.shape.machineId,
    shellId: ShellIdSchema,
    /** The viewer id the shell id was made from, and the /web socket its output goes to. */
    viewerId: ShellOpenSchema.shape.viewerId,
    socketId: z.string().min(1).max(64),
  }),
  /** A share link was revoked here: its sockets on every hub close now, not at the next sweep. */
  'share-revoked': z.object({ jti: z.string().min(1).max(200) }),
  /** Tokens were revoked through that hub (a device signed out, a replayed refresh secret): their
   *  sockets and push subscriptions go on every hub now, not at the next sweep. */
  'tokens-revoked': z.object({ namespace: NamespaceSchema, tokenIds: z.array(z.string().min(1).max(64)).max(10_000) }),
} as const;
export type ClusterFact = keyof typeof ClusterFactSchemas;

/** `/hub` handshake: the cluster's link secret (shared through the database). */
export const TerminalLinkHandshakeSchema = z.object({ protocol: z.number().int(), link: z.string().min(16).max(200) });

/** Linking hub → owning hub. */
export const TerminalLinkEventSchemas = {
  'link:subscribe': LinkedSchema.extend({ since: OffsetSchema.optional(), canWrite: z.boolean() }),
  'link:unsubscribe': LinkedSchema,
  'link:ack': LinkedSchema.extend({ offset: OffsetSchema }),
  'link:input': LinkedSchema.extend({ data: TerminalInputSchema.shape.data }),
  'link:resize': LinkedSchema.extend({ cols: ColsSchema, rows: RowsSchema, fit: TerminalResizeSchema.shape.fit }),
  'link:desk': LinkedSchema.extend({ attached: z.boolean(), cols: ColsSchema.optional(), rows: RowsSchema.optional() }),
} as const;

export type TerminalLinkAcks = {
  'link:subscribe': { mode: 'bytes' | 'snapshot'; offset: number };
  'link:unsubscribe': object;
  'link:ack': object;
  'link:input': { result: 'written' | 'dropped' | 'read-only' | 'not-joined' };
  'link:resize': { result: 'ok' | 'read-only' | 'not-joined' };
  'link:desk': object;
};

/** Owning hub → linking hub: one viewer's stream, or one chunk for several viewers in step. */
export const TerminalLinkOutputSchema = z.object({ sessionId: SessionIdSchema, viewerIds: z.array(ViewerIdSchema).min(1).max(10_000), offset: OffsetSchema, data: BytesSchema });
export type TerminalLinkServerToClient = {
  'link:output': (payload: z.infer<typeof TerminalLinkOutputSchema>) => void;
  'link:snapshot': (payload: { viewerId: string; snapshot: TerminalSnapshot }) => void;
  'link:size': (payload: { viewerId: string; notice: TerminalSizeNotice }) => void;
};
