// store.ts: the narrow persistence interface every hub room talks to, async so that it can sit on a
// server. One implementation (sql-store.ts: the schema of schema/, the queries of queries/) runs on
// SQLite (sqlite/sqlite-store.ts, one hub, the default) or PostgreSQL (postgres/, several hubs on one
// database: `tether hub --database postgres://…`); open.ts picks one.
// Invariants every implementation keeps (checked by store.contract.ts):
//  - every session/message/machine/request/prompt query is scoped by the caller's namespace; a row of
//    another namespace answers exactly like a missing row;
//  - message `seq` is per session, strictly increasing, assigned atomically; re-inserting an existing
//    message id is a no-op that reports the existing seq;
//  - a pending request is resolved at most once (first answer wins).
// Tokens are the one cross-namespace table: a token is how the hub learns the namespace.
import type {
  Answer,
  Attachment,
  ChatMessage,
  ChatMessageInputSchema,
  GuardStop,
  LimitContinue,
  Machine,
  MachineInfo,
  Namespace,
  OutsideEntry,
  OutsideSession,
  PendingRequest,
  ProjectRule,
  Prompt,
  PromptStatus,
  Resolution,
  Review,
  RuleCall,
  ReviewState,
  Schedule,
  ScheduleRun,
  ScheduleWhen,
  MissedRun,
  Session,
  SessionPatch,
  SessionRegistrationSchema,
  SessionWorktree,
  SlashCommand,
  SessionCommands,
  TokenInfo,
  UnattendedGuard,
  LimitContinueChange,
} from '@tether/shared';
import type { z } from 'zod';

/** A registration after its schema filled the defaults. */
export type SessionRegistrationInput = z.output<typeof SessionRegistrationSchema>;
/** A chat message after its schema filled the defaults. */
export type ChatMessageRecordInput = z.output<typeof ChatMessageInputSchema>;

export type TokenRecord = TokenInfo & { hash: string };

/** A store that cannot be opened (unreachable server, schema newer than this hub, …): the message
 *  is one line for the person starting the hub, with no password in it. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
}

/** The schema check both stores make before migrating: a database a newer hub migrated is refused. */
export function schemaTooNew(options: { found: number; known: number }): StoreOpenError {
  return new StoreOpenError(
    `the database schema is version ${options.found}, newer than this hub knows (${options.known}): run a newer tether, or point it at another database`,
  );
}
export type ShareLinkRecord = {
  jti: string;
  namespace: Namespace;
  sessionId: string;
  /** Label of the token that made it (for the audit of who shared what). */
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
};

/** A one-time pairing code as stored: its SHA-256, never the code (auth/pairing.ts). */
export type PairCodeRecord = {
  hash: string;
  namespace: Namespace;
  /** Who made it (the token label, or `tether hub` / `tether pair` on the hub's machine). */
  createdBy: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  /** The device token its redemption minted. */
  tokenId: string | null;
  /** The token that made it (null: the hub's own machine, `tether hub` / `tether pair --namespace`).
   *  Revoked, the code redeems nothing. */
  creatorTokenId: string | null;
};

/** A device token's refresh state: its current secret's SHA-256, the one that secret replaced,
 *  and when (auth/devices.ts decides what a presented secret means). */
export type DeviceRefreshRecord = {
  id: string;
  namespace: Namespace;
  kind: TokenRecord['kind'];
  hash: string | null;
  prevHash: string | null;
  refreshedAt: number | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
};

export type RedeemPairCodeResult =
  /** This call won the code: `token` (in the code's namespace) is stored, the code is spent. */
  | { kind: 'redeemed'; token: TokenRecord }
  /** The code exists but is used, past its expiry, or its maker is revoked: nothing changed. */
  | { kind: 'spent' }
  /** No such code (never made, or purged). */
  | { kind: 'unknown' };

/** The last terminal screen of an ended session (a serialized snapshot at `offset`). */
export type FinalScreenRecord = { offset: number; cols: number; rows: number; data: string; savedAt: number };

export type RegisterSessionResult =
  | { kind: 'ok'; session: Session; created: boolean }
  /** The id belongs to another namespace. */
  | { kind: 'forbidden' };

export type ArchiveSessionResult =
  | { kind: 'ok'; session: Session }
  /** Archiving a session that runs: refused, nothing changed (rules.ts ARCHIVABLE_STATUSES). */
  | { kind: 'live'; session: Session }
  | { kind: 'not_found' };

export type AppendMessagesResult = {
  /** Messages stored by this call, with their new seq (ids already stored are left out). */
  added: ChatMessage[];
  /** Seq of every message of the batch, in batch order (existing ids report their stored seq). */
  seqs: number[];
  lastSeq: number;
};

export type MessagePageResult = { messages: ChatMessage[]; more: boolean };

export type AddRequestResult =
  | { kind: 'added'; request: PendingRequest }
  /** Same id already pending: nothing changed. */
  | { kind: 'pending'; request: PendingRequest }
  /** Same id already resolved (e.g. answered while the runner was offline). */
  | { kind: 'resolved'; request: PendingRequest; resolution: Resolution }
  /** No such session in this namespace, or the id is used by another session/namespace. */
  | { kind: 'not_found' };

export type ResolveRequestResult =
  | { kind: 'resolved'; request: PendingRequest; resolution: Resolution }
  | { kind: 'already'; resolution: Resolution }
  | { kind: 'not_found' };

export type AddPromptResult =
  | { kind: 'added'; prompt: Prompt }
  /** Same prompt id already stored for this session: idempotent resend. */
  | { kind: 'exists'; prompt: Prompt }
  | { kind: 'not_found' };

/** What `changeHeldPrompt` did: changed it, or found it already handed to the runner (or no longer
 *  queued: delivered, dropped, withdrawn), or found no such prompt in this session and namespace. */
export type ChangeHeldPromptResult = { kind: 'changed'; prompt: Prompt } | { kind: 'not_held'; prompt: Prompt } | { kind: 'not_found' };
/** An edit of a held prompt's text, or its withdrawal (dropped, reason `withdrawn`). */
export type HeldPromptChange = { kind: 'edit'; text: string } | { kind: 'withdraw' };

export type AddAttachmentResult =
  | { kind: 'added'; attachment: Attachment }
  /** No such session in this namespace. */
  | { kind: 'not_found' }
  /** The caps (rules.ts) would be passed: which one. */
  | { kind: 'full'; cap: 'session_count' | 'session_bytes' | 'namespace_bytes' };

/** What one store call may hold at once (attachments/attachments.ts names the numbers). */
export type AttachmentCaps = { perSession: number; sessionBytes: number; namespaceBytes: number };

export interface Store extends ScheduleStore, UnattendedStore {
  // tokens (cross-namespace: looked up by hash to learn the namespace)
  insertToken(options: { token: TokenRecord }): Promise<void>;
  findTokenByHash(options: { hash: string }): Promise<TokenRecord | null>;
  getToken(options: { id: string }): Promise<TokenRecord | null>;
  listTokens(options?: { namespace?: Namespace }): Promise<TokenInfo[]>;
  /** Revokes the token and every device paired from it, on down; the ids revoked now (the given
   *  one first when it was live), empty when nothing was live. */
  revokeToken(options: { id: string; at: number }): Promise<string[]>;
  touchToken(options: { id: string; at: number }): Promise<void>;
  getDeviceRefresh(options: { id: string }): Promise<DeviceRefreshRecord | null>;
  /** Replaces a live device's refresh secret `from` with `to` (the old one kept as the previous);
   *  false when `from` is not its current secret or the device is revoked. */
  rotateDeviceRefresh(options: { id: string; from: string; to: string; at: number }): Promise<boolean>;

  // share links (looked up by jti across namespaces: the jti comes from a verified signed link)
  insertShareLink(options: { link: ShareLinkRecord }): Promise<void>;
  getShareLink(options: { jti: string }): Promise<ShareLinkRecord | null>;
  /** False when there is no such live link in that namespace and session. */
  revokeShareLink(options: { namespace: Namespace; sessionId: string; jti: string; at: number }): Promise<boolean>;

  // one-time pairing codes (looked up by hash across namespaces: the code is how a phone learns one)
  insertPairCode(options: { code: PairCodeRecord }): Promise<void>;
  /** Spends a live code and stores the device token it mints, in the code's namespace, in one
   *  transaction: of concurrent redeems exactly one wins. `token` is filled in with that namespace. */
  redeemPairCode(options: { hash: string; at: number; token: Omit<TokenRecord, 'namespace' | 'parentId'>; refreshHash: string | null }): Promise<RedeemPairCodeResult>;
  /** Unused codes of the namespace still valid at `at`. */
  countLivePairCodes(options: { namespace: Namespace; at: number }): Promise<number>;
  /** Deletes codes that expired before `before` (used or not); how many went. */
  purgePairCodes(options: { before: number }): Promise<number>;

  // final screens of ended sessions (upserted; only the newest `keep` of a namespace are kept)
  saveFinalScreen(options: { namespace: Namespace; sessionId: string; screen: FinalScreenRecord; keep: number }): Promise<void>;
  getFinalScreen(options: { namespace: Namespace; sessionId: string }): Promise<FinalScreenRecord | null>;
  /** The session runs again (resumed): its old final screen is no longer the last one. */
  deleteFinalScreen(options: { namespace: Namespace; sessionId: string }): Promise<void>;

  // sessions
  registerSession(options: { namespace: Namespace; registration: SessionRegistrationInput; now: number }): Promise<RegisterSessionResult>;
  getSession(options: { namespace: Namespace; sessionId: string }): Promise<Session | null>;
  listSessions(options: { namespace: Namespace }): Promise<Session[]>;
  updateSession(options: { namespace: Namespace; sessionId: string; patch: SessionPatch; now: number }): Promise<Session | null>;
  endSession(options: {
    namespace: Namespace;
    sessionId: string;
    status: 'ended' | 'failed';
    exitCode: number | null;
    reason: string | null;
    now: number;
  }): Promise<Session | null>;

  /** Pin (keeping the first pin's time; clears archived) or unpin; null when not in this namespace. */
  pinSession(options: { namespace: Namespace; sessionId: string; pinned: boolean; now: number }): Promise<Session | null>;
  /** The person's continue-at-reset choice for a session (null: the hub's default); null when not in this namespace. */
  setLimitContinue(options: { namespace: Namespace; sessionId: string; choice: LimitContinue | null; now: number }): Promise<Session | null>;
  /** Claim the one continue for the limit that resets at `resetsAt`: true for exactly one caller (of
   *  any hub), and only while the session still reports that limit. */
  claimLimitContinue(options: { namespace: Namespace; sessionId: string; resetsAt: number }): Promise<boolean>;
  /** The continue claimed for `resetsAt` was held by the unattended guard: recorded on the session
   *  (its limit's `held`); null when the session no longer has that claim. */
  holdLimitContinue(options: { namespace: Namespace; sessionId: string; resetsAt: number; held: GuardStop; now: number }): Promise<Session | null>;
  /** Sessions of every namespace whose row holds a usage limit (a hub that starts re-arms their reset). */
  sessionsAtLimit(): Promise<Array<{ namespace: Namespace; session: Session }>>;
  /** Record the git worktree a session runs in (or its removal); null when not in this namespace. */
  setSessionWorktree(options: { namespace: Namespace; sessionId: string; worktree: SessionWorktree; now: number }): Promise<Session | null>;
  /** Archive (only an ended session; clears pinned) or unarchive. */
  archiveSession(options: { namespace: Namespace; sessionId: string; archived: boolean; now: number }): Promise<ArchiveSessionResult>;

  // messages
  appendMessages(options: {
    namespace: Namespace;
    sessionId: string;
    messages: readonly ChatMessageRecordInput[];
  }): Promise<AppendMessagesResult | null>;
  /** `after` → ascending from after+1; `before` → the `limit` newest below it, returned ascending;
   *  neither → the latest page. */
  listMessages(options: {
    namespace: Namespace;
    sessionId: string;
    after?: number;
    before?: number;
    limit: number;
  }): Promise<MessagePageResult | null>;
  /** A search's first pass (queries/messages.ts): messages with seq in (after, before) whose stored
   *  form holds `pieces` in order, newest first, at most `limit`; null: not the namespace's session. */
  findMessages(options: {
    namespace: Namespace;
    sessionId: string;
    pieces: readonly string[];
    caseSensitive: boolean;
    after: number;
    before: number;
    limit: number;
  }): Promise<ChatMessage[] | null>;

  // machines
  upsertMachine(options: { namespace: Namespace; machine: MachineInfo; now: number }): Promise<Machine>;
  setMachineOnline(options: { namespace: Namespace; machineId: string; online: boolean; now: number }): Promise<Machine | null>;
  /** What a machine's daemon vouches with (the SHA-256 of its secret; null: an older daemon, which
   *  vouches for nothing), or null when the namespace has no such machine. */
  getMachineVouch(options: { namespace: Namespace; machineId: string }): Promise<{ vouch: string | null } | null>;
  listMachines(options: { namespace: Namespace }): Promise<Machine[]>;
  /** The machine's switch for finding conversations tether did not run; off drops its index. */
  setMachineOutside(options: { namespace: Namespace; machineId: string; enabled: boolean }): Promise<Machine | null>;

  // Conversations found on a machine (shared outside.ts): an index only.
  /** A daemon's report: entries upserted, `removed` dropped; `sweepBefore` (a whole report's end):
   *  unclaimed entries it did not report since then are dropped. */
  recordOutside(options: { namespace: Namespace; machineId: string; entries: OutsideEntry[]; removed: string[]; sweepBefore: number | null; now: number }): Promise<void>;
  /** A page, newest first, of the unclaimed entries no session of the namespace names; `q` matches
   *  title or folder (case-insensitive), never content. */
  listOutside(options: { namespace: Namespace; machineId: string; q: string; offset: number; limit: number }): Promise<{ sessions: OutsideSession[]; total: number }>;
  /** Every machine's entry of one conversation, claimed or not. */
  findOutside(options: { namespace: Namespace; agentSessionId: string }): Promise<Array<OutsideSession & { claimed: boolean }>>;
  /** Claims it for one adopt: true for the one that won, false when it was claimed already or is gone. */
  claimOutside(options: { namespace: Namespace; machineId: string; agentSessionId: string; now: number }): Promise<boolean>;
  releaseOutside(options: { namespace: Namespace; machineId: string; agentSessionId: string }): Promise<void>;

  // approvals: pending requests and their resolutions (the audit trail)
  addRequest(options: { namespace: Namespace; request: PendingRequest }): Promise<AddRequestResult>;
  listPending(options: { namespace: Namespace; sessionId: string }): Promise<PendingRequest[]>;
  /** One request of the namespace still waiting, by id; null when unknown, another namespace's, or resolved. */
  getPending(options: { namespace: Namespace; requestId: string }): Promise<PendingRequest | null>;
  resolveRequest(options: {
    namespace: Namespace;
    requestId: string;
    /** When set, the request must belong to this session. */
    sessionId?: string;
    outcome: 'answered' | 'withdrawn';
    answer: Answer | null;
    answeredBy: string | null;
    device: string | null;
    at: number;
  }): Promise<ResolveRequestResult>;
  listAudit(options: { namespace: Namespace; sessionId: string; limit: number }): Promise<Resolution[]>;
  /** Fills the answer of a request the desk took to claude's own dialog (answer still null); null
   *  when there is no such entry (unknown, another namespace, or not a dialog entry). */
  recordDialogOutcome(options: { namespace: Namespace; sessionId: string; requestId: string; answer: Answer }): Promise<Resolution | null>;

  // prompts
  /** `creatorTokenId`: the token that sent it (its revocation drops it while held). */
  addPrompt(options: { namespace: Namespace; prompt: Prompt; creatorTokenId?: string | null }): Promise<AddPromptResult>;
  /** Drops the prompts these tokens sent that the hub still holds (not handed over); which ones. */
  dropPromptsOfTokens(options: { namespace: Namespace; tokenIds: readonly string[]; reason: string; now: number }): Promise<Prompt[]>;
  updatePrompt(options: {
    namespace: Namespace;
    sessionId: string;
    promptId: string;
    status: PromptStatus;
    reason: string | null;
    now: number;
  }): Promise<Prompt | null>;
  listPrompts(options: { namespace: Namespace; sessionId: string; status?: PromptStatus }): Promise<Prompt[]>;
  /** Marks the session's queued prompts (or the one named) handed to the runner, in one statement,
   *  and returns every queued one with the text it has at that moment (those handed before too: a
   *  runner that comes back gets them again), oldest first. A prompt is handed at most once; after
   *  that `changeHeldPrompt` refuses it, so the runner never gets old text or a withdrawn prompt. */
  handOverPrompts(options: { namespace: Namespace; sessionId: string; promptId?: string; now: number }): Promise<Prompt[]>;
  /** Edits or withdraws a prompt only while it is queued and not handed over, in one statement. */
  changeHeldPrompt(options: { namespace: Namespace; sessionId: string; promptId: string; change: HeldPromptChange; now: number }): Promise<ChangeHeldPromptResult>;

  // attachments (files uploaded for a session's prompts; deleted when the session ends)
  /** Stored only if the session is this namespace's and no cap would be passed (checked in the same transaction). */
  addAttachment(options: { namespace: Namespace; attachment: Attachment; data: Uint8Array; caps: AttachmentCaps }): Promise<AddAttachmentResult>;
  getAttachment(options: { namespace: Namespace; sessionId: string; id: string }): Promise<{ attachment: Attachment; data: Uint8Array } | null>;
  /** The attachments of this session among `ids` (without their bytes); others are left out. */
  findAttachments(options: { namespace: Namespace; sessionId: string; ids: readonly string[] }): Promise<Attachment[]>;
  deleteAttachment(options: { namespace: Namespace; sessionId: string; id: string }): Promise<boolean>;
  /** Every attachment of the session; how many went. */
  deleteSessionAttachments(options: { namespace: Namespace; sessionId: string }): Promise<number>;

  // slash commands a session's runner reported (replaced whole)
  /** False when there is no such session in this namespace. */
  saveSessionCommands(options: { namespace: Namespace; sessionId: string; commands: readonly SlashCommand[]; at: number }): Promise<boolean>;
  /** Null when there is no such session in this namespace. */
  getSessionCommands(options: { namespace: Namespace; sessionId: string }): Promise<SessionCommands | null>;

  // reviews (shared reviews.ts): one per reviewer session, naming the session it reviews
  /** Stores the review and sets its session's parent in one transaction; `not_found` when either
   *  session is not in this namespace, `exists` when that session already is a review. */
  addReview(options: { namespace: Namespace; review: Review }): Promise<AddReviewResult>;
  getReview(options: { namespace: Namespace; reviewId: string }): Promise<Review | null>;
  /** The reviews of a session, oldest first. */
  listReviews(options: { namespace: Namespace; parentId: string }): Promise<Review[]>;
  /** Changes its state and, when given, its final answer; null when not in this namespace. */
  updateReview(options: { namespace: Namespace; reviewId: string; state: ReviewState; finalAnswer?: string; now: number }): Promise<Review | null>;

  // rules tether proposes from repeated allows (shared project-rules.ts)
  /** One more allow of `command` in that folder of that machine: counted, and proposed once it
   *  reaches `proposeAt` (`proposedNow` then); a revoked rule is not counted again. */
  countRuleAllow(options: { namespace: Namespace; machineId: string; folder: string; toolName: string; command: string; call: RuleCall; proposeAt: number; now: number }): Promise<{ rule: ProjectRule; proposedNow: boolean }>;
  getRule(options: { namespace: Namespace; ruleId: string }): Promise<ProjectRule | null>;
  /** Every rule past counting, newest change first; of one machine and folder when given. */
  listRules(options: { namespace: Namespace; machineId?: string; folder?: string }): Promise<ProjectRule[]>;
  /** The person's yes to a proposed rule; null when it is not (or no longer) proposed. */
  acceptRule(options: { namespace: Namespace; ruleId: string; ruleContent: string; by: string; device: string | null; tokenId: string | null; now: number }): Promise<ProjectRule | null>;
  /** No to a proposal, or an accepted or written rule taken back; null when there is none to revoke. */
  revokeRule(options: { namespace: Namespace; ruleId: string; now: number }): Promise<ProjectRule | null>;
  /** What a runner or the daemon did with it: written (also when revoked meanwhile: then it waits for
   *  removal), removed (once: null when it already was), failed. */
  reportRule(options: { namespace: Namespace; ruleId: string; outcome: 'written' | 'removed' | 'failed'; error: string | null; now: number }): Promise<ProjectRule | null>;
  /** The accepted and written rules these tokens said yes to, revoked with them. */
  revokeRulesOfTokens(options: { namespace: Namespace; tokenIds: readonly string[]; now: number }): Promise<ProjectRule[]>;

  close(): Promise<void>;
}

export type AddReviewResult = { kind: 'added'; review: Review } | { kind: 'exists'; review: Review } | { kind: 'not_found' };

export type AddScheduleResult = { kind: 'added'; schedule: Schedule } | { kind: 'exists'; schedule: Schedule } | { kind: 'full' } | { kind: 'taken' };
/** A schedule whose run is due, with the namespace it runs in and the token that made it. */
export type DueSchedule = { namespace: Namespace; schedule: Schedule; creatorTokenId: string | null };
/** What an edit sets (the next run is the caller's to compute from the new timing). */
export type ScheduleChange = { when: ScheduleWhen; prompt: string; missed: MissedRun; paused: boolean; nextRunAt: number | null };

/** Schedules (queries/schedules.ts). Namespaced like sessions, but for the one due query every hub's
 *  clock asks across namespaces. */
export interface ScheduleStore {
  /** `full` past `max` schedules in the namespace; `exists` for an id already stored there, `taken` for one of another namespace. */
  addSchedule(options: { namespace: Namespace; schedule: Schedule; creatorTokenId: string | null; max: number }): Promise<AddScheduleResult>;
  getSchedule(options: { namespace: Namespace; id: string }): Promise<Schedule | null>;
  /** Oldest first. */
  listSchedules(options: { namespace: Namespace }): Promise<Schedule[]>;
  changeSchedule(options: { namespace: Namespace; id: string; change: ScheduleChange; now: number }): Promise<Schedule | null>;
  deleteSchedule(options: { namespace: Namespace; id: string }): Promise<boolean>;
  /** Unpaused schedules with a run at or before `now`, every namespace, soonest first. */
  dueSchedules(options: { now: number; limit: number }): Promise<DueSchedule[]>;
  /** Takes the run due at `dueAt` for this caller: one UPDATE that moves the next run on, only while
   *  it is still `dueAt`, the schedule unpaused and its last run at least `minGapMs` ago. Of several
   *  hubs asking, one gets true. */
  claimScheduleRun(options: { namespace: Namespace; id: string; dueAt: number; nextRunAt: number | null; minGapMs: number; now: number }): Promise<boolean>;
  /** Records how a claimed run went (and pauses the schedule when asked: its session has ended). */
  recordScheduleRun(options: { namespace: Namespace; id: string; run: ScheduleRun; pause: boolean; now: number }): Promise<Schedule | null>;
  /** Deletes the schedules these tokens made; which ones, by namespace. */
  deleteSchedulesByTokens(options: { tokenIds: readonly string[] }): Promise<Array<{ namespace: Namespace; id: string }>>;
}

/** What a claim of one unattended run found: counted, or why not (the guard as it stands). */
export type UnattendedClaim = { kind: 'counted'; guard: UnattendedGuard } | { kind: GuardStop; guard: UnattendedGuard };

/** What the hub says for a namespace that chose nothing: the day's cap, and whether a session at its
 *  usage limit with no choice of its own is continued at the reset (with the default prompt). */
export type GuardDefaults = { defaultCap: number; defaultContinue: boolean };

/** The unattended guard (queries/unattended.ts). A namespace without a row has the defaults; the
 *  continue default stays the hub's until the namespace chooses one (a row made by a claim keeps it open). */
export interface UnattendedStore {
  getUnattendedGuard(options: { namespace: Namespace } & GuardDefaults): Promise<UnattendedGuard>;
  setUnattendedGuard(
    options: { namespace: Namespace; paused?: boolean | undefined; dailyCap?: number | undefined; limitContinue?: LimitContinueChange | undefined; now: number } & GuardDefaults,
  ): Promise<UnattendedGuard>;
  /** Counts one unattended run on `day` unless paused or the day's cap is reached: one conditional
   *  UPDATE, so of several hubs none passes the cap. */
  claimUnattendedRun(options: { namespace: Namespace; day: string; now: number } & GuardDefaults): Promise<UnattendedClaim>;
}
