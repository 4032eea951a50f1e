// daemon-removal.ts: a revoked rule's entry taken out of its folder's rule file by the machine's
// daemon, when no runner of that folder is connected to do it (shared DaemonRulesRemove). The store
// already holds what is pending: a revoked rule that was written and not yet removed (`removedAt`
// empty), so a daemon offline at the revoke is asked again when it registers.
//
//   revoked, no runner there ─► the machine's daemon (this hub or another) ─daemon:rules-remove─►
//   ack: removed | absent ─► removedAt (once) · failed ─► the reason on the rule, still pending
//
// Invariants: only the namespace's own daemon of the rule's machine is asked, one folder per command;
// only rules that were asked about count from its ack; one removal per folder at a time (a second
// waits, then asks only for what is still pending); nothing here logs an entry (they are commands).
import type { Namespace, ProjectRule } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { DaemonDirectory } from '../machines/daemons.ts';

/** What a removal needs of the daemon directory (machines/daemons.ts): find the machine's daemon, command it. */
export type RuleDaemons = Pick<DaemonDirectory, 'locate' | 'command'>;

/** One folder of one machine: where a rule lives. */
export type Folder = { machineId: string; folder: string };

/** Revoked after the agent wrote it, and not yet out of the file. */
export const awaitsRemoval = (rule: ProjectRule) => rule.status === 'revoked' && rule.writtenAt !== null && rule.removedAt === null;

/** The folders of these rules, each once. */
export function foldersOf(rules: readonly ProjectRule[]): Folder[] {
  const seen = new Map<string, Folder>();
  for (const rule of rules) seen.set(`${rule.machineId}\u0000${rule.folder}`, { machineId: rule.machineId, folder: rule.folder });
  return [...seen.values()];
}

/** The most entries one command names (the schema's cap); more wait for the next. */
const MAX_PER_COMMAND = 500;

export function createDaemonRemoval(o: {
  store: Store;
  daemons: RuleDaemons;
  now: () => number;
  updated: (namespace: Namespace, rule: ProjectRule) => void;
  onError: (what: string, error: unknown) => void;
}) {
  const running = new Map<string, Promise<void>>();

  const removeNow = async (namespace: Namespace, where: Folder) => {
    const waiting = (await o.store.listRules({ namespace, machineId: where.machineId, folder: where.folder })).filter(awaitsRemoval).slice(0, MAX_PER_COMMAND);
    if (waiting.length === 0) return;
    // Offline: the rules stay pending in the store; its registration asks again.
    const daemon = await o.daemons.locate(namespace, where.machineId);
    if (!daemon) return;
    const ack = await o.daemons.command(daemon, 'daemon:rules-remove', { folder: where.folder, rules: waiting.map((r) => ({ id: r.id, toolName: r.toolName, ruleContent: r.ruleContent })) });
    if (!ack.ok) return o.onError('rules: the daemon\'s removal', new Error(ack.error));
    const asked = new Set(waiting.map((r) => r.id));
    for (const result of ack.rules) {
      if (!asked.delete(result.id)) continue;
      const outcome = result.outcome === 'failed' ? 'failed' : 'removed';
      const rule = await o.store.reportRule({ namespace, ruleId: result.id, outcome, error: result.error, now: o.now() });
      if (rule) o.updated(namespace, rule);
    }
  };

  return {
    /** Asks the machine's daemon to remove the folder's pending entries; never throws. */
    folder(namespace: Namespace, where: Folder): Promise<void> {
      const key = `${namespace}\u0000${where.machineId}\u0000${where.folder}`;
      const next = (running.get(key) ?? Promise.resolve())
        .then(() => removeNow(namespace, where))
        .catch((error: unknown) => o.onError('rules: the daemon\'s removal', error));
      running.set(key, next);
      void next.then(() => {
        if (running.get(key) === next) running.delete(key);
      });
      return next;
    },
  };
}
