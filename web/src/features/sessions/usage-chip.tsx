// usage-chip.tsx: the tokens a session has used, in the header's facts line: "12.3k tokens · context
// 41%" (the percent only when the agent states its window), and on tap what that is made of.
// The numbers are the runner's reading of the agent's own transcript (docs/decisions/usage.md).
import { agentDisplayName } from '@tether/shared/wire';
import type { Session, SessionUsage } from '@tether/shared';
import { describeUsage, formatTokens } from '../../lib/format.ts';
import { InfoPopover } from './disclosure.tsx';

function UsageDetails({ usage, agent }: { usage: SessionUsage; agent: Session['agent'] }) {
  const { share } = describeUsage(usage);
  return (
    <>
      <dl className="usage-details">
        <dt>Input</dt>
        <dd>
          {formatTokens(usage.inputTokens)}
          {usage.cachedInputTokens > 0 ? <span className="usage-aside"> ({formatTokens(usage.cachedInputTokens)} from cache)</span> : null}
        </dd>
        <dt>Output</dt>
        <dd>{formatTokens(usage.outputTokens)}</dd>
        <dt>Context</dt>
        <dd>
          {usage.contextWindow ? `${formatTokens(usage.contextTokens)} of ${formatTokens(usage.contextWindow)} (${share})` : formatTokens(usage.contextTokens)}
        </dd>
      </dl>
      <p className="info-text">
        The whole session, resumes and subagents included, as {agentDisplayName(agent)}'s transcript records it.
        {usage.contextWindow ? '' : ` ${agentDisplayName(agent)} does not say how large its context window is.`}
      </p>
    </>
  );
}

export function UsageChip({ session }: { session: Session }) {
  if (!session.usage) return null;
  const { short, label } = describeUsage(session.usage);
  return (
    <InfoPopover label={label} chip={short} className="badge chip-button usage-chip" title="Tokens used">
      <UsageDetails usage={session.usage} agent={session.agent} />
    </InfoPopover>
  );
}
