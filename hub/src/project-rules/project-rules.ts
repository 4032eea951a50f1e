// project-rules.ts: approvals that become rules (shared project-rules.ts). A person's allow from
// afar is counted per call, folder and machine; the third proposes the narrowest rule; the person's
// yes hands it to the live runners of that folder, which write it through the agent at the next
// matching call; a revoke (the person's, or the accepting device's revocation) has them remove it,
// or, with no runner of the folder connected, the machine's daemon (now, or when it connects).
//
//   approval.allowed ─► counted (store) ─3rd─► rule.updated (proposed)
//   rules:accept / rules:revoke / tokens.revoked ─► store ─► rule.updated, rules:sync ─► the folder's runners
//                                                   no runner connected ─daemon:rules-remove─► the machine's daemon
//   a runner (re)registers ─► rules:sync          runner ─rules:report─► store ─► rule.updated
//   a daemon registers ─► its folders' removals still pending (no runner there) ─daemon:rules-remove─► it
//   daemon's ack (removed/absent: removedAt; failed: the reason) ─► store ─► rule.updated
//
// Invariants: nothing is counted for a session whose machine the hub cannot vouch for, or whose
// agent writes no project rules; a rule is handed to runners only once accepted; each runner hears
// only the rules of its own machine and folder, a daemon only the removals of its own machine (the
// namespace's daemon of that machine id) and only rules it was asked about count from its ack; a
// removal is recorded once (removedAt set only while empty), so the runner and the daemon may both
// remove an entry without recording it twice.
import { ackError, isFinalStatus, proposalProblem, RULE_PROPOSAL_ALLOWS, ruleContentFor, type Ack, type Answer, type Namespace, type PendingRequest, type ProjectRule, type RuleReport, type RuleSync, type Session } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import type { RunnerCommands } from '../facts/runners.ts';
import { awaitsRemoval, createDaemonRemoval, foldersOf, type Folder, type RuleDaemons } from './daemon-removal.ts';

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
    if (awaitsRemoval(rule)) return [{ id: rule.id, toolName: rule.toolName, ruleContent: rule.ruleContent, action: 'remove' }];
    return [];
  });
}

const writesRules = (session: Session) => session.capabilities?.relays.projectRules === true && session.machineId !== null;

export function createProjectRules(options: { store: Store; facts: FactBus; runners: RunnerCommands; daemons: RuleDaemons; onError: (what: string, error: unknown) => void; now?: () => number }) {
  const { store, facts, runners } = options;
  const now = options.now ?? Date.now;
  const updated = (namespace: Namespace, rule: ProjectRule) => facts.publish('rule.updated', { namespace, rule });

  /** The session's folder's work, sent to its runner. */
  const syncSession = async (namespace: Namespace, session: Session) => {
    if (!writesRules(session) || isFinalStatus(session.status)) return;
    const rules = await store.listRules({ namespace, machineId: session.machineId!, folder: session.cwd });
    runners.send(namespace, session.id, 'rules:sync', { sessionId: session.id, rules: workOf(rules) });
  };

  /** The live sessions of that folder of that machine whose agent writes rules. */
  const folderSessions = async (namespace: Namespace, where: Folder) =>
    (await store.listSessions({ namespace })).filter((s) => s.machineId === where.machineId && s.cwd === where.folder && writesRules(s) && !isFinalStatus(s.status));

  /** Whether a runner of one of them is connected (unsure counts as connected: it hears the work
   *  again at its next registration). */
  const runnerConnected = async (namespace: Namespace, sessions: readonly Session[]) => {
    for (const session of sessions) if (await runners.present(namespace, session.id)) return true;
    return false;
  };

  /** Every live session in that folder hears the folder's work; the sessions told. */
  const syncFolder = async (namespace: Namespace, where: Folder): Promise<Session[]> => {
    const sessions = await folderSessions(namespace, where);
    for (const session of sessions) await syncSession(namespace, session);
    return sessions;
  };

  const daemonRemoval = createDaemonRemoval({ store, daemons: options.daemons, now, updated, onError: options.onError });

  /** The folder's runners first; with none connected, the machine's daemon takes the removals
   *  (resolved once it answered: an ack to a person or a runner does not wait for that). */
  const reachFolder = async (namespace: Namespace, where: Folder): Promise<{ daemon: Promise<void> }> => ({
    daemon: (await runnerConnected(namespace, await syncFolder(namespace, where))) ? Promise.resolve() : daemonRemoval.folder(namespace, where),
  });

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
      // The daemon's part, if any, goes on after this ack.
      await reachFolder(namespace, rule);
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
      if (rule.status === 'revoked' && report.outcome === 'written') await reachFolder(namespace, rule);
      return { ok: true };
    },

    /** A runner (re)registered: its folder's work. */
    syncSession,

    /** A device was revoked: the rules it said yes to go with it, each folder reached once. */
    async tokensRevoked(fact: { namespace: Namespace; tokenIds: readonly string[] }): Promise<void> {
      const revoked = await store.revokeRulesOfTokens({ namespace: fact.namespace, tokenIds: fact.tokenIds, now: now() });
      for (const rule of revoked) updated(fact.namespace, rule);
      for (const where of foldersOf(revoked)) await (await reachFolder(fact.namespace, where)).daemon;
    },

    /** A machine's daemon (re)registered: the removals waiting in its folders where no runner is connected. */
    async daemonRegistered(namespace: Namespace, machineId: string): Promise<void> {
      const waiting = (await store.listRules({ namespace, machineId })).filter(awaitsRemoval);
      for (const where of foldersOf(waiting)) {
        if (!(await runnerConnected(namespace, await folderSessions(namespace, where)))) await daemonRemoval.folder(namespace, where);
      }
    },
  };
}
