// wire.ts: the protocol's constants and its few pure helpers, with no zod. The web app imports them
// as `@tether/shared/wire` so a screen that needs a constant does not load the schemas (vite puts
// the rest of shared/ and zod in their own 'protocol' chunk, kept off the first load). The modules
// that own these names re-export them; nothing here is defined twice. It imports nothing: the
// schema modules build their enums from the word lists here (one way, no import circle), and the
// helpers take the shape they read, which the schemas' records satisfy.

/** The coding agents a session may run (agent-terms.ts: AgentKindSchema). Adding an agent adds its
 *  name here; what it can do travels as its capabilities, never as this name. */
export const AGENT_KINDS = ['claude', 'codex', 'gemini', 'opencode'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];
/** How a session's agent runs: in a PTY at the desk, or headless over its transport. */
export const LAUNCH_KINDS = ['pty', 'headless'] as const;
export type LaunchKind = (typeof LAUNCH_KINDS)[number];
/** A session's status (session.ts); ended and failed are final. */
export const SESSION_STATUSES = ['starting', 'idle', 'thinking', 'waiting', 'ended', 'failed'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** Bump the major on any change an older peer would misread. Peers with another major are refused
 *  at the handshake with a message that says which versions differ. */
export const PROTOCOL_VERSION = { major: 2, minor: 0 } as const;
// 2: a session's `claudeSessionId` became `agentSessionId` (it held Codex's thread id too), and
//    runners and daemons state their agent's capabilities (agent-capabilities.ts).

/** The agent of a record that names none (written before Codex support: every one ran claude). */
export const DEFAULT_AGENT: AgentKind = 'claude';

/** `tth_` + 43 base64url chars (256 random bits). The prefix makes leaked tokens greppable. */
export const TOKEN_PREFIX = 'tth_';

/** A one-time pairing code: `tpc_` + 32 base64url chars (192 random bits), good for 10 minutes and
 *  one use (shared pairing.ts). The prefix tells it from a token in a pasted field or a leak scan. */
export const PAIR_CODE_PREFIX = 'tpc_';

export const FINAL_STATUSES: readonly SessionStatus[] = ['ended', 'failed'];
export function isFinalStatus(status: SessionStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

/** Whether the session list shows a session in its Archived section rather than in the list. Only
 *  an ended session ever counts: one that runs (and may need its person) is never out of sight,
 *  whatever a stale copy of its record says. */
export function isArchived(session: { status: SessionStatus; archivedAt?: number | null | undefined }): boolean {
  return session.archivedAt != null && isFinalStatus(session.status);
}

/** Who answered at the desk (the person at the terminal where `tether claude` runs). */
export const DESK_ANSWERER = 'desk';
/** The device of an answer given with a notification's Allow/Deny: `notification@<browser>`. */
export const NOTIFICATION_DEVICE_PREFIX = 'notification@';

/** The reason an audit entry decided in claude's own dialog carries. */
export const DIALOG_OUTCOME_REASON = "in claude's dialog at the desk";

/** A viewer acks at once when this many bytes are written but not yet acked, and otherwise soon
 *  after its last chunk (acks are cumulative: `terminal:ack { offset }` covers every byte before
 *  it). The hub pauses a viewer past 1 MiB unacked and resumes it at 512 KiB, so a quarter of
 *  that keeps the pipe full; per-chunk acks were a fifth of the fan-out viewers' CPU. */
export const TERMINAL_ACK_BYTES = 256 * 1024;

/** Binary payloads arrive as Buffer (Bun/Node), Uint8Array or ArrayBuffer (browsers). */
export function toBytes(v: Uint8Array | ArrayBuffer): Uint8Array {
  return v instanceof Uint8Array ? v : new Uint8Array(v);
}

/** Effort levels in the protocol's words, lowest first (claude's `/effort` names; an agent takes the
 *  ones its capabilities list); agent-terms.ts builds its schema from these. */
export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type EffortLevel = (typeof EFFORT_LEVELS)[number];

/** What the composer may attach (attachments.ts sniffs uploads by their bytes against this list):
 *  the image types claude's Messages API takes, PDF and plain text. */
export const ATTACHMENT_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain'] as const;
export type AttachmentMediaType = (typeof ATTACHMENT_MEDIA_TYPES)[number];
/** Largest attachment. The Messages API refuses an image over 5 MB, and a headless session sends the
 *  bytes as they are; the web app shrinks a larger photo before it uploads it. */
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/** Attachments one prompt may carry: a handful of screenshots, never a whole album. */
export const MAX_ATTACHMENTS_PER_PROMPT = 10;

/** The runner's private dir for a PTY session's attachments starts with this (cli/src/attachments),
 *  so the prompt it types, `@<dir>/<prompt id>/1-shot.png … text`, can be shown as files and text. */
export const ATTACHMENT_DIR_PREFIX = 'tether-attachments-';
const ATTACHMENT_MENTION = /^@(\S*\/tether-attachments-[^/\s]+\/[^/\s]+\/\d+-(\S+))(?:\s+|$)/;

/** What a file name may not keep, because it can hide or disguise what the name says: C0 and C1
 *  controls, and every format character (Unicode Cf: the bidi embeddings, overrides and isolates
 *  U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F and U+061C, zero-width spaces, the BOM,
 *  the soft hyphen…) except the zero-width joiners U+200C/U+200D that some scripts and emoji need
 *  (they join, they never reorder); line and paragraph separators; and lone surrogates (no UTF-8
 *  for them, and encodeURIComponent throws on one). U+202E alone shows "invoice\u202Egnp.exe" as
 *  "invoiceexe.png". */
const HIDDEN_IN_NAMES = /[\p{Cc}\u2028\u2029]|(?![\u200C\u200D])\p{Cf}|\p{Cs}/gu;

/** A file name as the phone gave it, shown to people: the last path part, without any of
 *  HIDDEN_IN_NAMES, trimmed. The hub stores names this way (shared/attachments.ts); the composer
 *  shows a picked file's name this way before the hub has it. */
export function cleanAttachmentName(name: string): string {
  // Hidden characters go first: `.` stops at a line break, so "a\n/../b" would keep its folders.
  return name.replace(HIDDEN_IN_NAMES, '').replace(/^.*[\\/]/, '').trim();
}

/** A PTY prompt's leading `@path`s of attached files (their names as the runner wrote them) and the
 *  text after them; other text is left as it is. */
export function splitAttachmentMentions(text: string): { files: string[]; text: string } {
  const files: string[] = [];
  let rest = text;
  for (let match = ATTACHMENT_MENTION.exec(rest); match; match = ATTACHMENT_MENTION.exec(rest)) {
    files.push(match[2]!);
    rest = rest.slice(match[0].length);
  }
  return { files, text: files.length > 0 ? rest : text };
}

// What an agent's capabilities allow (agent-capabilities.ts has the schema; these stay zod-free for the
// web's first load).
export type Switch = 'models' | 'effort' | 'modes';

type SwitchableIn = { switchableIn: readonly LaunchKind[] };
/** What the helpers below read of an agent's capabilities: AgentCapabilities satisfies it. */
export type CapabilitiesRead = {
  displayName: string;
  models: SwitchableIn & { offered: readonly string[]; typed: boolean };
  effort: SwitchableIn & { levels: readonly EffortLevel[]; maps: Partial<Record<EffortLevel, EffortLevel>> };
  modes: SwitchableIn & { values: readonly string[] };
  resumeCommand: string;
};

/** How people call an agent in a sentence: its capabilities' display name, else its kind
 *  capitalised (a record from before capabilities travelled). */
export function agentDisplayName(agent: AgentKind, capabilities?: Pick<CapabilitiesRead, 'displayName'> | null): string {
  return capabilities?.displayName ?? `${agent.charAt(0).toUpperCase()}${agent.slice(1)}`;
}

/** Whether the phone may switch `what` in a session of this launch kind. No record (a runner older
 *  than capabilities): nothing is switchable, the safe default. */
export function canSwitch(capabilities: CapabilitiesRead | null | undefined, what: Switch, launchKind: LaunchKind): boolean {
  if (!capabilities) return false;
  const entry = capabilities[what];
  const has = what === 'models' ? capabilities.models.offered.length > 0 || capabilities.models.typed : what === 'effort' ? capabilities.effort.levels.length > 0 : capabilities.modes.values.length > 0;
  return has && entry.switchableIn.includes(launchKind);
}

/** The level to ask the agent for, or null when it has none for `level`. */
export function effortFor(capabilities: CapabilitiesRead, level: EffortLevel): EffortLevel | null {
  if (capabilities.effort.levels.includes(level)) return level;
  const mapped = capabilities.effort.maps[level];
  return mapped && capabilities.effort.levels.includes(mapped) ? mapped : null;
}

/** The command a person types at the desk to resume this conversation. */
export function resumeAtDesk(capabilities: Pick<CapabilitiesRead, 'resumeCommand'>, agentSessionId: string): string {
  return capabilities.resumeCommand.replace('{id}', agentSessionId);
}

/** The history's tool name for a git action from the phone (git-actions.ts): the approval history
 *  lists them with the answers. */
export const GIT_HISTORY_TOOL = 'Git';
/** The hub's refusal of a git write while the agent is mid-turn (the web offers "Do it anyway"). */
export const GIT_MID_TURN_REFUSAL = 'the agent is mid-turn: a commit now may catch its edits half done. Confirm to go ahead anyway';
/** The hub's refusal of a file save while the agent is mid-turn (the web offers "Save anyway"). */
export const FILE_MID_TURN_REFUSAL = 'the agent is mid-turn: it may be editing this file too. Confirm to save anyway';
/** The hub's refusal of a save over a file that changed since it was opened (the web shows the difference). */
export const FILE_STALE_REFUSAL = 'the file changed since you opened it: nothing was written';
/** Why `path` may not be edited from a phone, or null. Case-insensitive (macOS folders ignore case).
 *  What an agent reads as permissions or runs as code: claude's settings (its hooks and allowed
 *  tools), MCP servers, Gemini's and Codex's own folders, direnv's `.envrc`, git's hooks wherever a
 *  hook manager keeps them, and `.git` itself. */
export function editRefusal(path: string): string | null {
  const parts = path.toLowerCase().split('/');
  const name = parts.at(-1) ?? '';
  const inside = (folder: string) => parts.slice(0, -1).includes(folder);
  if (parts.includes('.git')) return "is in '.git', git's own folder (its hooks run code): it is not edited from here";
  if (inside('.claude') && /^settings.*\.json$/.test(name)) return "is claude's settings (its permissions and hooks): edit it at the desk";
  if (inside('.claude') && parts.includes('hooks')) return "is a claude hook (it runs as code): edit it at the desk";
  if (name === '.mcp.json') return 'names MCP servers (programs an agent runs): edit it at the desk';
  if (inside('.gemini')) return "is in '.gemini', Gemini's settings (its permissions and hooks): edit it at the desk";
  if (inside('.codex')) return "is in '.codex', Codex's settings (its permissions and hooks): edit it at the desk";
  if (name === '.envrc') return "is direnv's '.envrc' (it runs as code on entering the folder): edit it at the desk";
  if (inside('.husky') || inside('.githooks') || name === '.pre-commit-config.yaml' || name === 'lefthook.yml' || name === '.lefthook.yml') {
    return 'is a git hook (it runs as code): edit it at the desk';
  }
  return null;
}

/** Builds AskUserQuestion's `answers` map from picked labels and free text ("Other").
 *  Multi-select answers are the labels joined with ", ", as claude's own picker writes them. */
export function buildQuestionAnswers(options: {
  questions: ReadonlyArray<{ question: string; multiSelect: boolean }>;
  picks: ReadonlyArray<{ labels: readonly string[]; other?: string }>;
}): Record<string, string> {
  const answers: Record<string, string> = {};
  options.questions.forEach((q, i) => {
    const pick = options.picks[i] ?? { labels: [] };
    const parts = [...pick.labels];
    const other = pick.other?.trim();
    if (other) parts.push(other);
    if (parts.length === 0) throw new Error(`no answer for question ${JSON.stringify(q.question)}`);
    if (!q.multiSelect && parts.length > 1) {
      throw new Error(`question ${JSON.stringify(q.question)} takes one answer`);
    }
    answers[q.question] = parts.join(', ');
  });
  return answers;
}

/** An answer as buildQuestionAnswers (or claude's own picker) wrote it, read back against the
 *  question: which options were chosen, and the words that are none of them ("Other"). Labels are
 *  matched longest first, so a label that itself holds ", " is still one choice. */
export function readQuestionAnswer(question: { options: ReadonlyArray<{ label: string }> }, answer: string): { chosen: string[]; other: string | null } {
  let rest = `, ${answer}, `;
  const chosen: string[] = [];
  for (const label of [...question.options.map((o) => o.label)].sort((a, b) => b.length - a.length)) {
    const at = rest.indexOf(`, ${label}, `);
    if (at === -1) continue;
    chosen.push(label);
    rest = `${rest.slice(0, at)}${rest.slice(at + label.length + 2)}`;
  }
  const other = rest.replace(/^(, )+|(, )+$/g, '').trim();
  const order = question.options.map((o) => o.label);
  return { chosen: chosen.sort((a, b) => order.indexOf(a) - order.indexOf(b)), other: other || null };
}

/** The tool name of an approval to change files, whatever agent asks (file-changes.ts). */
export const FILE_CHANGES_TOOL_NAME = 'FileChanges';

/** The most audio bytes one dictation may carry (transcription.ts): the attachment cap, so the hub's
 *  request-size ceiling stays where it is. Two minutes of 16 kHz mono WAV (the largest format a phone sends) fit. */
export const TRANSCRIPTION_MAX_BYTES = ATTACHMENT_MAX_BYTES;
/** The longest dictation, in seconds: a prompt, not a meeting. */
export const TRANSCRIPTION_MAX_SECONDS = 120;

/** How a hub's tether was installed (cli/src/config/build.ts; GET /api/config's `install`,
 *  hub-features.ts): a source checkout, the npm package or a single-file binary. */
export const INSTALL_KINDS = ['checkout', 'package', 'binary'] as const;
export type InstallKind = (typeof INSTALL_KINDS)[number];

/** Whether `value` is an install kind: what the web reads of GET /api/config without zod. */
export function isInstallKind(value: unknown): value is InstallKind {
  return INSTALL_KINDS.some((kind) => kind === value);
}

/** Why a withdrawn prompt is `dropped` (prompts.ts; no status of its own: every viewer already
 *  shows a dropped one). */
export const WITHDRAWN_REASON = 'withdrawn';

/** A prompt the hub still holds (queued, not handed to the runner): the phone may edit or withdraw
 *  it. An older hub states no `handedAt`: nothing it sends is held. */
export function isHeldByHub(prompt: { status: string; handedAt?: number | null }): boolean {
  return prompt.status === 'queued' && prompt.handedAt === null;
}

/** A UUID (any version), as ids are minted: what `tether <verb> <session>` checks before asking the
 *  hub. Here, zod-free, so `tether hook` (run on every tool call) never loads the schemas. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** The prompt tether sends at a usage limit's reset unless the person chose another (usage-limit.ts). */
export const DEFAULT_CONTINUE_PROMPT = 'continue';

/** What the phone writes on a waiting session: "waiting for the limit to reset at 15:00" (here, not
 *  in usage-limit.ts: the session list's badge draws it, and the list is on the first load). */
export function limitWaitText(limit: { resetsAt: number }, options: { now: number; clock: (at: number) => string }): string {
  return limit.resetsAt > options.now ? `waiting for the limit to reset at ${options.clock(limit.resetsAt)}` : `the limit reset at ${options.clock(limit.resetsAt)}`;
}

/** A guard's stop (unattended.ts GuardStop) in a few words, without the count (a session's limit keeps
 *  only which stop it met). Here, zod-free, because the session list's limit badge shows it. */
export function guardStopShort(stop: 'paused' | 'cap'): string {
  return stop === 'paused' ? 'everything unattended is paused' : "the day's cap on unattended runs was reached";
}
