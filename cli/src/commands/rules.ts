// rules.ts: `tether rules [--json]`, `tether rules accept <id> [--prefix P]`, `tether rules revoke <id>`:
// the rules tether proposed from a person's repeated allows (shared project-rules.ts), answered
// exactly as the phone does (/web rules:*), so the hub's checks and every tab's view are the same.
import { isUuid, prefixChoices, ruleCaveat, type ProjectRule } from '@tether/shared';
import { CommandError, parseFlags, type Command } from './command.ts';
import { connectAsPhone, requireCredentials } from './hub-access.ts';
import { ago } from './listing.ts';

/** One rule: its id, status and rule, where, what it covers, and what it really allows. */
function describe(rule: ProjectRule): string {
  const calls = rule.calls.map((call) => `      ${call.command}   (${ago(call.at)})`).join('\n');
  const picks = rule.status === 'proposed' ? prefixChoices(rule.command) : [];
  return [
    `${rule.id}  ${rule.status}${rule.error ? ` (${rule.error})` : ''}  ${rule.toolName}(${rule.ruleContent})`,
    `    in ${rule.folder} (machine ${rule.machineId}), allowed ${rule.allows} times:`,
    calls,
    `    ${ruleCaveat({ ruleContent: rule.ruleContent, folder: rule.folder })}`,
    ...(picks.length ? [`    a prefix instead: --prefix ${picks.map((p) => JSON.stringify(p)).join(' | ')}`] : []),
  ].join('\n');
}

const command: Command = {
  name: 'rules',
  summary: 'rules tether proposed from approvals you gave again and again: list, accept, revoke',
  usage:
    'tether rules [--json] | tether rules accept <id> [--prefix P] | tether rules revoke <id>\n' +
    '  accept     the agent writes the rule into the project (claude: .claude/settings.local.json) at its next matching call\n' +
    '  --prefix P  a prefix rule instead of the exact command (one of the prefixes the listing names)\n' +
    '  revoke     no to a proposal, or take an accepted rule back: its entry leaves the file',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json'], strings: ['prefix'] });
    const [action, ruleId, extra] = positionals;
    if (extra !== undefined || (action !== undefined && action !== 'accept' && action !== 'revoke')) throw new CommandError(`usage: ${command.usage}`, 2);
    if (action && (!ruleId || !isUuid(ruleId))) throw new CommandError(`"${ruleId ?? ''}" is not a rule id (see tether rules)`, 2);
    if (flags.prefix !== undefined && action !== 'accept') throw new CommandError('--prefix goes with accept', 2);
    const client = await connectAsPhone({ creds: requireCredentials(), device: 'tether rules' });
    try {
      if (!action) {
        const ack = await client.request('rules:list', {});
        if (!ack.ok) throw new CommandError(`hub refused: ${ack.error}`);
        process.stdout.write(`${flags.json ? JSON.stringify({ rules: ack.rules }) : ack.rules.length ? ack.rules.map(describe).join('\n\n') : 'no rules proposed'}\n`);
        return 0;
      }
      const ack = action === 'accept' ? await client.request('rules:accept', { ruleId: ruleId!, ...(typeof flags.prefix === 'string' ? { prefix: flags.prefix } : {}) }) : await client.request('rules:revoke', { ruleId: ruleId! });
      if (!ack.ok) throw new CommandError(`hub refused: ${ack.error}`);
      process.stdout.write(`${flags.json ? JSON.stringify({ rule: ack.rule }) : `${action === 'accept' ? 'accepted' : 'revoked'}: ${describe(ack.rule)}`}\n`);
      return 0;
    } finally {
      client.close();
    }
  },
};
export default command;
