// format.ts: turning protocol values into the short words a phone screen has room for.
// Pure functions only (no React, no DOM): times, paths, statuses and device names.
import type { AgentCapabilities, AgentKind, LaunchKind, SessionStatus, SessionUsage } from '@tether/shared';
import { agentDisplayName, canSwitch, DEFAULT_AGENT, DESK_ANSWERER, EFFORT_LEVELS, FILE_CHANGES_TOOL_NAME, NOTIFICATION_DEVICE_PREFIX, type EffortLevel } from '@tether/shared/wire';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5m ago", "3h ago", "yesterday", "4d ago", then a date. */
export function formatRelativeTime(at: number, now: number = Date.now()): string {
  const age = Math.max(0, now - at);
  if (age < 45_000) return 'just now';
  if (age < HOUR) return `${Math.round(age / MINUTE)}m ago`;
  if (age < DAY) return `${Math.floor(age / HOUR)}h ago`;
  if (age < 2 * DAY) return 'yesterday';
  if (age < 7 * DAY) return `${Math.floor(age / DAY)}d ago`;
  return new Date(at).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

/** One formatter for the page: toLocaleTimeString with options builds a new one per call, which
 *  was 22 ms of a tap's first frame on the emulated phone (a call per message row and render). */
let clockFormat: Intl.DateTimeFormat | undefined;

/** "14:05" for a message timestamp. */
export function formatClockTime(at: number): string {
  clockFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
  return clockFormat.format(at);
}

/** The last path segment: "/home/ana/src/tether" → "tether". */
export function pathBasename(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const index = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return index >= 0 ? trimmed.slice(index + 1) || trimmed : trimmed;
}

/** A path shortened for a list row: the home prefix becomes "~", long paths keep their tail. */
export function formatDirectory(path: string, options: { home?: string | undefined; max?: number } = {}): string {
  const max = options.max ?? 48;
  let out = path;
  const home = options.home?.replace(/\/+$/, '');
  if (home && (out === home || out.startsWith(`${home}/`))) out = `~${out.slice(home.length)}`;
  else out = out.replace(/^\/(home|Users)\/[^/]+(?=\/|$)/, '~');
  if (out.length <= max) return out;
  return `…${out.slice(out.length - max + 1)}`;
}

/** "512 B", "4.2 KB", "38 KB", "12.5 MB", "1.3 GB": a size in a line of text. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

export function sessionTitle(session: { title: string; cwd: string }): string {
  return session.title.trim() || pathBasename(session.cwd) || 'Untitled session';
}

export type StatusTone = 'neutral' | 'busy' | 'ok' | 'attention' | 'muted' | 'danger';

/** Words and tone for each status. "waiting" means claude waits for the user, so it asks for attention. */
const STATUS_LOOK: Record<SessionStatus, { label: string; tone: StatusTone }> = {
  starting: { label: 'Starting', tone: 'neutral' },
  thinking: { label: 'Thinking', tone: 'busy' },
  idle: { label: 'Idle', tone: 'ok' },
  waiting: { label: 'Waiting for you', tone: 'attention' },
  ended: { label: 'Ended', tone: 'muted' },
  failed: { label: 'Failed', tone: 'danger' },
};

export function describeStatus(status: SessionStatus): { label: string; tone: StatusTone } {
  // A status from a newer hub than this page: named as it is.
  return Object.hasOwn(STATUS_LOOK, status) ? STATUS_LOOK[status] : { label: String(status), tone: 'neutral' };
}

/** The effort levels the phone offers, or null when it can set none here: the agent's own, in the
 *  protocol's order (a level it lacks but maps, Codex's "max", is not offered: the hub maps it for
 *  other clients). */
export function effortLevelsFor(session: { launchKind: LaunchKind; capabilities?: AgentCapabilities | null }): readonly EffortLevel[] | null {
  const caps = session.capabilities;
  if (!caps || !canSwitch(caps, 'effort', session.launchKind)) return null;
  return EFFORT_LEVELS.filter((level) => caps.effort.levels.includes(level));
}

/** The session's launch kind, and its agent when that is not the default one (left unsaid). */
export function describeLaunchKind(kind: LaunchKind, agent: AgentKind = DEFAULT_AGENT): { label: string; title: string } {
  const name = agent === DEFAULT_AGENT ? agent : agentDisplayName(agent);
  const base = kind === 'pty' ? { label: 'PTY', title: `Interactive terminal (${name}'s live TUI)` } : { label: 'Headless', title: `Chat only (${name}, no terminal)` };
  return agent === DEFAULT_AGENT ? base : { label: `${name} · ${base.label}`, title: base.title };
}

/** A short name for this browser, shown in the audit trail: "Chrome on Android", "Safari on iPhone". */
export function deviceNameFromUserAgent(ua: string): string {
  const os = /iPhone/.test(ua)
    ? 'iPhone'
    : /iPad/.test(ua)
      ? 'iPad'
      : /Android/.test(ua)
        ? 'Android'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'Mac'
          : /Windows/.test(ua)
            ? 'Windows'
            : /CrOS/.test(ua)
              ? 'ChromeOS'
              : /Linux/.test(ua)
                ? 'Linux'
                : 'unknown OS';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\/|FxiOS/.test(ua)
      ? 'Firefox'
      : /CriOS|Chrome\/|Chromium\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  return `${browser} on ${os}`;
}

/** One readable line for a tool call: the Bash command, the file path, the pattern … */
export function summarizeToolInput(name: string, input: unknown): string {
  const record = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const pick = (...keys: string[]): string | undefined => {
    for (const key of keys) {
      const value = record[key];
      if (typeof value === 'string' && value.trim()) return value;
    }
    return undefined;
  };
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  switch (name) {
    case 'Bash':
      return oneLine(pick('command') ?? '');
    case 'Read':
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
    case 'NotebookEdit':
      return pick('file_path', 'notebook_path') ?? '';
    case 'Glob':
    case 'Grep':
      return oneLine([pick('pattern'), pick('path')].filter(Boolean).join('  in '));
    case FILE_CHANGES_TOOL_NAME: {
      // The files a patch changes, not its JSON.
      const changes = Array.isArray(record.changes) ? (record.changes as Array<{ path?: unknown }>) : [];
      return changes.flatMap((c) => (typeof c?.path === 'string' ? [c.path] : [])).join(', ');
    }
    case 'WebFetch':
      return pick('url') ?? '';
    case 'WebSearch':
      return pick('query') ?? '';
    case 'Task':
    case 'Agent':
      return oneLine(pick('description', 'prompt') ?? '');
    case 'AskUserQuestion': {
      // Before the answer arrives the card says what was asked, never the raw JSON.
      const questions = Array.isArray(record.questions) ? (record.questions as Array<Record<string, unknown>>) : [];
      const texts = questions.map((q) => (typeof q?.question === 'string' ? oneLine(q.question) : '')).filter(Boolean);
      return texts.join(' · ');
    }
    case 'ExitPlanMode':
      return 'Plan ready for review';
    case 'TodoWrite': {
      const todos = Array.isArray(record.todos) ? record.todos.length : 0;
      return `${todos} item${todos === 1 ? '' : 's'}`;
    }
    default: {
      const first = pick('description', 'command', 'file_path', 'path', 'url', 'query', 'pattern', 'prompt');
      if (first) return oneLine(first);
      try {
        return oneLine(JSON.stringify(input) ?? '');
      } catch {
        return '';
      }
    }
  }
}

/** Whether a request was answered at the desk terminal (`answeredBy: "desk"`, device `desk@host`). */
export function answeredAtDesk(resolution: { answeredBy: string | null; device: string | null }): boolean {
  return resolution.answeredBy === DESK_ANSWERER || (resolution.device ?? '').startsWith('desk@');
}

/** The browser whose notification's Allow/Deny answered (device `notification@<browser>`), or null. */
export function answeredFromNotification(resolution: { device: string | null }): string | null {
  const device = resolution.device ?? '';
  return device.startsWith(NOTIFICATION_DEVICE_PREFIX) ? device.slice(NOTIFICATION_DEVICE_PREFIX.length) : null;
}

/** "12s", "4m", "1h 5m": how long something has waited. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours}h ${minutes % 60}m` : `${hours}h`;
}

/** Commands whose second word is the real verb (`git push`, `npm run`): their prefix rule keeps it. */
const TWO_WORD_COMMANDS = new Set(['git', 'npm', 'pnpm', 'yarn', 'bun', 'cargo', 'go', 'docker', 'kubectl', 'gh', 'make', 'uv', 'pip']);

/** The prefix offered for "allow commands like this for the session": `git push origin` → `git push`. */
export function suggestBashPrefix(command: string): string {
  const words = command.trim().split(/\s+/).filter(Boolean);
  const first = words[0] ?? '';
  if (TWO_WORD_COMMANDS.has(first) && words[1] && !words[1].startsWith('-')) return `${first} ${words[1]}`;
  return first;
}

/** Which of an agent's offered model names (claude's aliases, from its capabilities) a model belongs
 *  to ("claude-opus-4-1-20250805" → "opus"), if any. */
export function modelAliasOf(model: string | null, aliases: readonly string[]): string | null {
  if (!model) return null;
  return aliases.find((alias) => model === alias || model.includes(`-${alias}`)) ?? null;
}

/** A model as people say it: "claude-opus-4-1-20250805" → "opus 4.1", "claude-3-5-haiku-…" →
 *  "haiku 3.5"; an alias or an unknown name stays as it is; none → "default model". */
export function describeModel(model: string | null): string {
  if (!model) return 'default model';
  const modern = /^claude-(opus|sonnet|haiku)-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?$/.exec(model);
  if (modern) return `${modern[1]} ${modern[2]}${modern[3] ? `.${modern[3]}` : ''}`;
  const legacy = /^claude-(\d+)(?:-(\d{1,2}))?-(opus|sonnet|haiku)(?:-\d{8})?$/.exec(model);
  if (legacy) return `${legacy[3]} ${legacy[1]}${legacy[2] ? `.${legacy[2]}` : ''}`;
  return model;
}

/** A path claude named (absolute, or relative to the session) as a path inside the session's
 *  directory (`src/app.ts`), or null when it is outside it: the Files view opens only those. */
export function pathInSession(path: string, cwd: string): string | null {
  const root = cwd.replace(/\/+$/, '');
  const rest = path.startsWith('/') ? (path.startsWith(`${root}/`) ? path.slice(root.length + 1) : null) : path;
  if (rest === null) return null;
  const parts = rest.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) return null;
  return parts.join('/');
}

/** "950", "12.3k", "123k", "4.5M": a token count short enough for a chip. */
export function formatTokens(count: number): string {
  // One decimal under 100 of a unit, none above; a count that would round up to 1000k is 1M.
  const short = (value: number, unit: string) => (value < 99.95 ? `${Math.round(value * 10) / 10}${unit}` : `${Math.round(value)}${unit}`);
  if (count < 1000) return String(count);
  if (count < 999_500) return short(count / 1000, 'k');
  return short(count / 1_000_000, 'M');
}

/** A session's usage in words: the chip's short line and its accessible name. The percent appears
 *  only when the agent stated its window (claude does not). Tokens = input + output. */
export function describeUsage(usage: SessionUsage): { short: string; label: string; contextPercent: number | null; share: string | null } {
  const total = formatTokens(usage.inputTokens + usage.outputTokens);
  const contextPercent = usage.contextWindow ? Math.min(100, Math.round((usage.contextTokens / usage.contextWindow) * 100)) : null;
  // A context in use that rounds to 0 is not empty: "<1%".
  const share = contextPercent === 0 && usage.contextTokens > 0 ? '<1%' : `${contextPercent}%`;
  return {
    short: contextPercent === null ? `${total} tokens` : `${total} tokens · context ${share}`,
    // The visible words start the accessible name (WCAG 2.5.3, axe label-content-name-mismatch).
    label: contextPercent === null ? `${total} tokens used. Details` : `${total} tokens · context ${share} full. Details`,
    contextPercent,
    share: contextPercent === null ? null : share,
  };
}
