// rules.ts: what a session has already allowed ("allow for this session"), as pure data.
// A rule is the tool name, one exact Bash command, or a Bash command prefix (`git:*` → "git …").
import type { SessionRule } from '@tether/shared';

export type StoredRule =
  | { kind: 'tool'; toolName: string }
  | { kind: 'bash-exact'; command: string }
  | { kind: 'bash-prefix'; prefix: string };

export type SessionRules = {
  add(rule: StoredRule): void;
  /** Turns a hub answer's `sessionRule` for this call into a stored rule. */
  addFromAnswer(options: { rule: SessionRule; toolName: string; toolInput: Record<string, unknown> }): void;
  matches(options: { toolName: string; toolInput: Record<string, unknown> }): boolean;
  list(): StoredRule[];
};

function bashCommand(input: Record<string, unknown>): string | null {
  return typeof input.command === 'string' ? input.command.trim() : null;
}

/** A prefix matches the command itself or the command followed by a space ("git" ≠ "gitk"). Commands
 *  that chain or substitute (`;`, `&&`, `|`, backticks, `$(`) never match a prefix rule: the prefix
 *  would otherwise allow whatever follows it. */
function prefixMatches(prefix: string, command: string): boolean {
  const p = prefix.replace(/:\*$/, '').trim();
  if (!p) return false;
  if (/[;&|`\n]|\$\(/.test(command)) return false;
  return command === p || command.startsWith(`${p} `);
}

export function createSessionRules(): SessionRules {
  const rules: StoredRule[] = [];
  const add = (rule: StoredRule) => {
    if (!rules.some((r) => JSON.stringify(r) === JSON.stringify(rule))) rules.push(rule);
  };
  return {
    add,
    addFromAnswer: ({ rule, toolName, toolInput }) => {
      switch (rule.kind) {
        case 'tool':
          add({ kind: 'tool', toolName });
          return;
        case 'bash-exact': {
          const command = bashCommand(toolInput);
          if (command) add({ kind: 'bash-exact', command });
          return;
        }
        case 'bash-prefix':
          add({ kind: 'bash-prefix', prefix: rule.prefix });
          return;
        default: {
          const never: never = rule;
          throw new Error(`unknown rule ${JSON.stringify(never)}`);
        }
      }
    },
    matches: ({ toolName, toolInput }) =>
      rules.some((rule) => {
        switch (rule.kind) {
          case 'tool':
            return rule.toolName === toolName;
          case 'bash-exact':
            return toolName === 'Bash' && bashCommand(toolInput) === rule.command;
          case 'bash-prefix': {
            const command = bashCommand(toolInput);
            return toolName === 'Bash' && command !== null && prefixMatches(rule.prefix, command);
          }
          default: {
            const never: never = rule;
            return never;
          }
        }
      }),
    list: () => [...rules],
  };
}
