// project-rules.ts: approvals that become rules (shared project-rules.ts). A person's allow from
// afar is counted per call, folder and machine; the third proposes the narrowest rule; the person's
// yes hands it to the live runners of that folder, which write it through the agent at the next
// matching call; a revoke (the person's, or the accepting device's revocation) has them remove it.
//
//   approval.allowed ─► counted (store) ─3rd─► rule.updated (proposed)
//   rules:accept / rules:revoke / tokens.revoked ─► store ─► rule.updated, rules:sync ─► the folder's runners
//   a runner (re)registers ─► rules:sync          runner ─rules:report─► store ─► rule.updated
//
// Invariants: nothing is counted for a session whose machine the hub cannot vouch for, or whose
// agent writes no project rules; a rule is handed to runners only once accepted; each runner hears
// only the rules of its own machine and folder.
import { ackError, isFinalStatus, proposalProblem, RULE_PROPOSAL_ALLOWS, ruleContentFor, type Ack, type Answer, type Namespace, type PendingRequest, type ProjectRule, type RuleReport, type RuleSync, type Session } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import type { RunnerCommands } from '../facts/runners.ts';

const NO_RULE = 'no such rule';

export type ProjectRules = ReturnType<typeof createProjectRules>;

/** Who said yes: the token's label, the device's own name, the token (its revocation takes the rule). */
export type RuleAccepter = { by: string; device: string | null; tokenId: string | null };

/** The call a person allowed, as it ran: an edited command replaces claude's own. */
function allowedCommand(options: { request: PendingRequest; answer: Answer }): string | null {
  const edited = options.answer.updatedInput?.command;
  const command = typeof edited === 'string' ? edited : options.request.toolInput.command;
  return typeof command === 'string' ? command : null;
}

/** What a runner of this folder has to do: write the accepted rules at their next call, remove the revoked ones still in the file. */
function workOf(rules: readonly ProjectRule[]): RuleSync['rules'] {
  return rules.flatMap((rule): RuleSync['rules'] => {
    if (rule.status === 'accepted') return [{ id: rule.id, toolName: rule.toolName, ruleContent: rule.ruleContent, action: 'write' }];
    if (rule.status === 'revoked' && rule.writtenAt !== null && rule.removedAt === null) return [{ id: rule.id, toolName: rule.toolName, ruleContent: rule.ruleContent, action: 'remove' }];
    return [];
  });
}

const writesRules = (session: Session) => session.capabilities?.relays.projectRules === true && session.machineId !== null;

export function createProjectRules(options: { store: Store; facts: FactBus; runners: RunnerCommands; now?: () => number }) {
  const { store, facts, runners } = options;
  const now = options.now ?? Date.now;
  const updated = (namespace: Namespace, rule: ProjectRule) => facts.publish('rule.updated', { namespace, rule });

  /** The session's folder's work, sent to its runner. */
  const syncSession = async (namespace: Namespace, session: Session) => {
    if (!writesRules(session) || isFinalStatus(session.status)) return;
    const rules = await store.listRules({ namespace, machineId: session.machineId!, folder: session.cwd });
    runners.send(namespace, session.id, 'rules:sync', { sessionId: session.id, rules: workOf(rules) });
  };

  /** Every live session in the rule's folder of its machine hears that folder's work. */
  const syncFolder = async (namespace: Namespace, rule: ProjectRule) => {
    for (const session of await store.listSessions({ namespace })) {
      if (session.machineId === rule.machineId && session.cwd === rule.folder) await syncSession(namespace, session);
    }
  };

  return {
    /** A person allowed a request from afar: one more allow of that call in that folder. */
    async allowed(namespace: Namespace, fact: { request: PendingRequest; answer: Answer }): Promise<void> {
      if (fact.request.kind !== 'permission') return;
      const command = allowedCommand(fact);
      const session = await store.getSession({ namespace, sessionId: fact.request.sessionId });
      if (command === null || !session || !writesRules(session)) return;
      if (proposalProblem({ toolName: fact.request.toolName, command, folder: session.cwd })) return;
      const at = now();
      const { rule, proposedNow } = await store.countRuleAllow({
        namespace,
        machineId: session.machineId!,
        folder: session.cwd,
        toolName: fact.request.toolName,
        command,
        call: { command, sessionId: session.id, at },
        proposeAt: RULE_PROPOSAL_ALLOWS,
        now: at,
      });
      if (proposedNow || rule.status !== 'counting') updated(namespace, rule);
    },

    async list(namespace: Namespace): Promise<Ack<{ rules: ProjectRule[] }>> {
      return { ok: true, rules: await store.listRules({ namespace }) };
    },

    async accept(namespace: Namespace, input: { ruleId: string; prefix?: string | undefined }, who: RuleAccepter): Promise<Ack<{ rule: ProjectRule }>> {
      const found = await store.getRule({ namespace, ruleId: input.ruleId });
      if (!found) return ackError('not_found', NO_RULE);
      if (found.status !== 'proposed') return ackError('conflict', `the rule is ${found.status}, not proposed`);
      const ruleContent = ruleContentFor({ command: found.command, prefix: input.prefix });
      if (ruleContent === null) return ackError('bad_request', `"${input.prefix}" is not a prefix of words of ${found.command}`);
      const problem = proposalProblem({ toolName: found.toolName, command: found.command, folder: found.folder });
      if (problem) return ackError('bad_request', problem);
      const rule = await store.acceptRule({ namespace, ruleId: found.id, ruleContent, ...who, now: now() });
      if (!rule) return ackError('conflict', 'the rule is no longer proposed');
      updated(namespace, rule);
      await syncFolder(namespace, rule);
      return { ok: true, rule };
    },

    async revoke(namespace: Namespace, input: { ruleId: string }): Promise<Ack<{ rule: ProjectRule }>> {
      const rule = await store.revokeRule({ namespace, ruleId: input.ruleId, now: now() });
      if (!rule) return (await store.getRule({ namespace, ruleId: input.ruleId })) ? ackError('conflict', 'the rule is already revoked') : ackError('not_found', NO_RULE);
      updated(namespace, rule);
      await syncFolder(namespace, rule);
      return { ok: true, rule };
    },

    /** A runner's report about a rule of its own folder. */
    async report(namespace: Namespace, report: RuleReport): Promise<Ack<object>> {
      const [session, found] = await Promise.all([store.getSession({ namespace, sessionId: report.sessionId }), store.getRule({ namespace, ruleId: report.ruleId })]);
      if (!session || !found || session.machineId !== found.machineId || session.cwd !== found.folder) return ackError('not_found', NO_RULE);
      const rule = await store.reportRule({ namespace, ruleId: found.id, outcome: report.outcome, error: report.error ?? null, now: now() });
      if (!rule) return { ok: true };
      updated(namespace, rule);
      // Written after it was revoked: the runners remove it now.
      if (rule.status === 'revoked' && report.outcome === 'written') await syncFolder(namespace, rule);
      return { ok: true };
    },

    /** A runner (re)registered: its folder's work. */
    syncSession,

    /** A device was revoked: the rules it said yes to go with it. */
    async tokensRevoked(fact: { namespace: Namespace; tokenIds: readonly string[] }): Promise<void> {
      const revoked = await store.revokeRulesOfTokens({ namespace: fact.namespace, tokenIds: fact.tokenIds, now: now() });
      for (const rule of revoked) {
        updated(fact.namespace, rule);
        await syncFolder(fact.namespace, rule);
      }
    },
  };
}
