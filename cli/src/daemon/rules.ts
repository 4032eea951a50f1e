// rules.ts (daemon): revoked project rules taken out of a folder's rule file while no session of that
// folder is connected (a device revoked with nobody working there; shared project-rules.ts). The
// removal is each agent's own rule-file code, the one a runner's folder-rules.ts calls; the daemon
// only picks the folder the hub named.
//
//   hub ─daemon:rules-remove {folder, rules}─► each agent's rule file: remove(entry) ─► ack per rule
//
// Invariants: nothing but `<folder>`'s rule file is touched, and through the agent's own checks (never
// through a link, a file that is not a JSON object left untouched); a folder that is not absolute and
// plain is refused by the schema before this; the entries are command strings and never logged here,
// only counted.
import type { Ack, DaemonRulesRemove, DaemonRulesRemoveAck } from '@tether/shared';
import type { ProjectRuleFile } from '../agents/agent.ts';

type Outcome = DaemonRulesRemoveAck['rules'][number];

/** One rule out of every agent's file of the folder: failed if any file refused, removed if any had it. */
function removeOne(o: { folder: string; rule: DaemonRulesRemove['rules'][number]; files: readonly ProjectRuleFile[] }): Outcome {
  let outcome: Outcome = { id: o.rule.id, outcome: 'absent', error: null };
  for (const file of o.files) {
    const done = file.remove({ folder: o.folder, rule: o.rule });
    if ('error' in done) return { id: o.rule.id, outcome: 'failed', error: done.error.slice(0, 1000) };
    if (done.removed) outcome = { id: o.rule.id, outcome: 'removed', error: null };
  }
  return outcome;
}

/** What a removal did, in numbers: for the daemon's own log (the entries stay out of it). */
export type RulesRemoved = { folder: string; removed: number; absent: number; failed: number };

export function removeFolderRules(o: { request: DaemonRulesRemove; files: readonly ProjectRuleFile[] }): DaemonRulesRemoveAck {
  return { rules: o.request.rules.map((rule) => removeOne({ folder: o.request.folder, rule, files: o.files })) };
}

/** The daemon's handler: removes, tells its log how many, acks each rule's outcome. */
export function rulesRemoveCommand(o: { files: () => readonly ProjectRuleFile[]; onRemoved: (counts: RulesRemoved) => void }) {
  return (request: DaemonRulesRemove): Ack<DaemonRulesRemoveAck> => {
    const ack = removeFolderRules({ request, files: o.files() });
    const count = (outcome: Outcome['outcome']) => ack.rules.filter((r) => r.outcome === outcome).length;
    o.onRemoved({ folder: request.folder, removed: count('removed'), absent: count('absent'), failed: count('failed') });
    return { ok: true, ...ack };
  };
}
