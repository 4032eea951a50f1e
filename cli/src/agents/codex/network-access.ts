// network-access.ts: Codex's network approval, put to the phone in the words its PTY hook uses.
//
// Codex asks about a host only when its managed network proxy is on (an administrator's
// requirements.toml `[experimental_network]`, docs/decisions/agents.md "network approvals"): a
// sandboxed command reaches a host not on the allowlist, and the proxy holds the connection while a
// person decides. Headless, that is `item/commandExecution/requestApproval` with
// `networkApprovalContext {host, protocol}`, no `command`, and an itemId of Codex's own
// (`network#<env>#<protocol>#<host>#<port>#<uuid>`); in a PTY, a PermissionRequest hook for Bash with
// the running command and `network-access <protocol>://<host>:<port>` as its description.
//
// Both reach the phone as that Bash question (the command that wants the host, the host in the
// description), so a person reads one card whatever the launch kind. Why not a card of its own: in
// a PTY the hook's description is also where a model's justification for an escalated command goes,
// so a "network access" card there could be a command that runs outside the sandbox in disguise; the
// command card is true in both cases.

type Json = Record<string, unknown>;

export type NetworkContext = { host: string; protocol: string; port: number | null };

/** The network context of a command approval, if it is one (a host and a protocol, as Codex sends them). */
export function readNetworkContext(params: Json): NetworkContext | null {
  const context = params.networkApprovalContext;
  if (!context || typeof context !== 'object') return null;
  const { host, protocol } = context as Json;
  if (typeof host !== 'string' || host === '' || typeof protocol !== 'string' || protocol === '') return null;
  return { host, protocol, port: portOf({ itemId: params.itemId, host, protocol }) };
}

/** The port, from Codex's own id of the approval; null when the id is not of that shape. */
function portOf(o: { itemId: unknown; host: string; protocol: string }): number | null {
  if (typeof o.itemId !== 'string') return null;
  const parts = o.itemId.split('#');
  if (parts.length < 6 || parts[0] !== 'network' || parts[2] !== o.protocol || parts[3] !== o.host) return null;
  const port = Number(parts[4]);
  return Number.isInteger(port) && port > 0 && port < 65_536 ? port : null;
}

/** Codex's own words for the target (its TUI and its PTY hook say `network-access http://host:80`). */
export function networkTarget(context: NetworkContext): string {
  return `network-access ${context.protocol}://${context.host}${context.port === null ? '' : `:${context.port}`}`;
}

/** The question for the phone: the command that wants the host (when one command is running, it is
 *  that one), else Codex's words for the target; the target and Codex's reason as its description. */
export function networkQuestion(o: { context: NetworkContext; runningCommand: string | null; reason: string | null }): { toolName: 'Bash'; toolInput: Json } {
  const target = networkTarget(o.context);
  const description = o.reason ? `${target}: ${o.reason}` : target;
  return { toolName: 'Bash', toolInput: { command: o.runningCommand ?? target, description } };
}

/** How long a network approval waits for its command's item/started (it came after the request in 1
 *  of 3 runs at 0.171.0); past it, the card names the target alone. */
const COMMAND_ANNOUNCED_MS = 1_000;

/** The commands running in a headless turn (item/started, not yet item/completed), by item id. */
export function runningCommands(o: { announcedMs?: number } = {}) {
  const running = new Map<string, string>();
  const waiting = new Set<() => void>();
  return {
    started(item: { id: string; command: string | null }): void {
      if (item.command) running.set(item.id, item.command);
      for (const told of [...waiting]) told();
    },
    completed(id: string): void {
      running.delete(id);
    },
    clear(): void {
      running.clear();
    },
    /** The one command running, if exactly one is: the call a network approval belongs to. */
    sole(): { id: string; command: string } | null {
      const [only] = running.size === 1 ? [...running.entries()] : [];
      return only ? { id: only[0], command: only[1] } : null;
    },
    /** Settles once a command runs, or after a short wait: a network approval can come first. */
    async announced(): Promise<void> {
      if (running.size > 0) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiting.delete(done);
          resolve();
        };
        const timer = setTimeout(done, o.announcedMs ?? COMMAND_ANNOUNCED_MS);
        waiting.add(done);
      });
    },
  };
}
