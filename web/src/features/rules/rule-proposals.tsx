// rule-proposals.tsx: the rules tether proposes from calls the person allowed again and again
// (shared project-rules.ts), above the session list. A proposal shows the rule, the calls it would
// have covered, what it really allows, and — only when the person wants one — a prefix instead of
// the exact command. Yes hands it to the agent to write at its next matching call; No drops it.
// Rules in force are listed under a fold, each revocable; one the agent could not write says why.
import { useId, useState } from 'react';
import type { Machine, ProjectRule } from '@tether/shared';
import { prefixChoices, ruleCaveat } from '@tether/shared/rule-words';
import { formatDirectory, formatRelativeTime } from '../../lib/format.ts';
import { useMachines, useRules } from '../../lib/queries.ts';
import { requestHub } from '../../lib/socket.ts';
import { useNow } from '../../lib/ui/use-now.ts';
import './rules.css';

const EXACT = '';

function useAct() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    work()
      .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)))
      .finally(() => setBusy(false));
  };
  return { busy, error, act };
}

function folderOf(rule: ProjectRule, machines: readonly Machine[]): string {
  return formatDirectory(rule.folder, { home: machines.find((m) => m.id === rule.machineId)?.home });
}

function Where({ rule, machines }: { rule: ProjectRule; machines: readonly Machine[] }) {
  const machine = machines.find((m) => m.id === rule.machineId);
  return (
    <>
      <span className="rule-where">{folderOf(rule, machines)}</span>
      {machine ? ` on ${machine.name}` : ''}
    </>
  );
}

/** The shared caveat's `command` spans as code. */
function WithCode({ text }: { text: string }) {
  return <>{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}

function Proposal({ rule, machines }: { rule: ProjectRule; machines: readonly Machine[] }) {
  const now = useNow();
  const id = useId();
  const [prefix, setPrefix] = useState(EXACT);
  const { busy, error, act } = useAct();
  const prefixes = prefixChoices(rule.command);
  const content = prefix === EXACT ? rule.command : `${prefix}:*`;
  return (
    <article className="rule-card" aria-labelledby={`${id}-title`}>
      <h2 className="rule-title" id={`${id}-title`}>
        Make it a rule?
      </h2>
      <p className="rule-lead">
        You allowed this {rule.allows} times in <Where rule={rule} machines={machines} />:
      </p>
      <ul className="rule-calls" aria-label="The calls it would have covered">
        {rule.calls.map((call, index) => (
          // The calls are a fixed list, oldest first: their place is their identity.
          <li key={index}>
            <code>{call.command}</code> <span className="rule-when">{formatRelativeTime(call.at, now)}</span>
          </li>
        ))}
      </ul>
      {prefixes.length > 0 ? (
        <fieldset className="rule-choice">
          <legend>The rule allows</legend>
          <label>
            <input type="radio" name={`${id}-prefix`} checked={prefix === EXACT} onChange={() => setPrefix(EXACT)} />
            exactly <code>{rule.command}</code>
          </label>
          {prefixes.map((choice) => (
            <label key={choice}>
              <input type="radio" name={`${id}-prefix`} checked={prefix === choice} onChange={() => setPrefix(choice)} />
              <code>{choice}</code> with anything after it
            </label>
          ))}
        </fieldset>
      ) : null}
      <p className="rule-rule">
        <code>
          {rule.toolName}({content})
        </code>
      </p>
      <p className="rule-caveat">
        <WithCode text={ruleCaveat({ ruleContent: content, folder: folderOf(rule, machines) })} />
      </p>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="rule-actions">
        <button type="button" className="button" disabled={busy} onClick={() => act(() => requestHub('rules:revoke', { ruleId: rule.id }))}>
          Keep asking
        </button>
        <button type="button" className="button button-primary" disabled={busy} onClick={() => act(() => requestHub('rules:accept', { ruleId: rule.id, ...(prefix === EXACT ? {} : { prefix }) }))}>
          Make it a rule
        </button>
      </div>
    </article>
  );
}

function InForce({ rules, machines }: { rules: ProjectRule[]; machines: readonly Machine[] }) {
  const { busy, error, act } = useAct();
  if (rules.length === 0) return null;
  return (
    <details className="rule-in-force">
      <summary>
        {rules.length} {rules.length === 1 ? 'rule' : 'rules'} from your approvals
      </summary>
      <ul>
        {rules.map((rule) => (
          <li key={rule.id}>
            <div className="rule-in-force-text">
              <code>
                {rule.toolName}({rule.ruleContent})
              </code>
              <span className="rule-when">
                <Where rule={rule} machines={machines} /> · {rule.status === 'written' ? 'written by the agent' : 'written at its next call'}
              </span>
              {rule.error ? <span className="rule-error">{rule.error}</span> : null}
            </div>
            <button type="button" className="button button-quiet" disabled={busy} onClick={() => act(() => requestHub('rules:revoke', { ruleId: rule.id }))}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </details>
  );
}

export function RuleProposals() {
  const { data: rules } = useRules();
  const { data: machines } = useMachines();
  if (!rules) return null;
  const proposed = rules.filter((r) => r.status === 'proposed');
  const inForce = rules.filter((r) => r.status === 'accepted' || r.status === 'written');
  if (proposed.length === 0 && inForce.length === 0) return null;
  return (
    <section className="rule-proposals" aria-label="Rules from your approvals">
      {proposed.map((rule) => (
        <Proposal key={rule.id} rule={rule} machines={machines ?? []} />
      ))}
      <InForce rules={inForce} machines={machines ?? []} />
    </section>
  );
}
