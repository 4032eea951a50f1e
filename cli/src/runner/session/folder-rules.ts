// folder-rules.ts: the rules the person accepted for this session's folder (shared project-rules.ts),
// as the hub hands them over (`rules:sync`). The next call a rule covers is allowed with the rule
// attached, so that the agent itself writes it into its project rule file; a revoked rule's entry is
// taken out of that file. What happened goes back to the hub (`rules:report`).
//
//   hub rules:sync ─► write: kept until its call comes ─► approvals.ask: allow + the agent's update
//                                                         └► the file holds it? ─► written | failed
//                 └► remove: the agent's file loses exactly that entry ─► removed | failed
//
// Invariants: a rule is attached only to a call it covers, once, and only when the file is neither a
// link nor unreadable (then the call is asked as usual and the hub hears why); nothing here decides
// that a call is allowed without a rule the person accepted.
import { ruleCovers, type RuleSync } from '@tether/shared';
import type { PermissionUpdate } from '../../agents/verdict.ts';
import type { ProjectRuleFile } from '../../agents/agent.ts';
import type { HubLink } from '../../hub-link/link.ts';

/** How long the agent may take to write the rule after the answer, and how often the file is read
 *  meanwhile. claude writes it in its own time, after the call may have run and its turn ended: on a
 *  slow machine that took longer than the turn (a CI rehearsal at load 20), so the wait is generous;
 *  'failed' must mean the agent did not write it, not that it was slow. */
const WRITTEN_WITHIN_MS = 30_000;
const WRITTEN_POLL_MS = 100;

export type FolderRules = ReturnType<typeof createFolderRules>;

export function createFolderRules(o: { file: ProjectRuleFile | undefined; folder: string; sessionId: () => string; link: () => HubLink | null; log: (line: string) => void }) {
  let waiting: RuleSync['rules'] = [];
  const report = (ruleId: string, outcome: 'written' | 'removed' | 'failed', error: string | null = null) => {
    o.log(`rule ${ruleId}: ${outcome}${error ? ` (${error})` : ''}`);
    o.link()?.send('rules:report', { sessionId: o.sessionId(), ruleId, outcome, error });
  };

  /** Reads the file until the agent wrote the rule into it, or says it did not. */
  const confirmWritten = (rule: RuleSync['rules'][number], file: ProjectRuleFile) => {
    const deadline = Date.now() + WRITTEN_WITHIN_MS;
    const look = () => {
      if (file.holds({ folder: o.folder, rule })) return report(rule.id, 'written');
      if (Date.now() > deadline) return report(rule.id, 'failed', `the agent did not write ${rule.toolName}(${rule.ruleContent}) into its rule file`);
      setTimeout(look, WRITTEN_POLL_MS).unref();
    };
    look();
  };

  return {
    /** The hub's list for this folder, replacing the last. */
    sync(rules: RuleSync['rules']): void {
      const file = o.file;
      if (!file) return;
      waiting = rules.filter((rule) => rule.action === 'write');
      for (const rule of rules.filter((r) => r.action === 'remove')) {
        const done = file.remove({ folder: o.folder, rule });
        if ('error' in done) report(rule.id, 'failed', done.error);
        // Reported once the running agent has read the file again: from then on it asks.
        else setTimeout(() => report(rule.id, 'removed'), done.removed ? file.seenWithinMs : 0).unref();
      }
    },

    /** The update that has the agent write the accepted rule covering this call, or null (asked as usual). */
    updateFor(call: { toolName: string; toolInput: Record<string, unknown> }): PermissionUpdate[] | null {
      const file = o.file;
      const command = call.toolInput.command;
      if (!file || typeof command !== 'string') return null;
      const rule = waiting.find((r) => r.toolName === call.toolName && ruleCovers({ ruleContent: r.ruleContent, command }));
      if (!rule) return null;
      // Kept for the next call when the file cannot take it now: the person may fix the file.
      const problem = file.writeProblem({ folder: o.folder });
      if (problem) {
        report(rule.id, 'failed', problem);
        return null;
      }
      waiting = waiting.filter((r) => r !== rule);
      o.log(`rule ${rule.id}: ${call.toolName}(${rule.ruleContent}) allowed and handed to the agent to write`);
      confirmWritten(rule, file);
      return [file.update(rule)];
    },
  };
}
