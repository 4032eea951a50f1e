// listing.ts: what the listing verbs (`tether sessions`, `machines`, `pending`) share: they take no
// argument but --json, fetch one list from the hub, and print it as `{ <key>: [...] }` or as text, or
// one line saying there is nothing; and the aligned text table they (and `tether token list`) print,
// with times as "how long ago".
import { CommandError, parseFlags, type Command } from './command.ts';

/** A listing verb: its name, summary and usage, and how it reads and shows its list. */
export type Listing<T> = Pick<Command, 'name' | 'summary' | 'usage'> & {
  /** The JSON object's one key (`{ machines: [...] }`). */
  key: string;
  fetch: () => Promise<T[]>;
  /** The list as text, without the final newline; only called for a list that is not empty. */
  text: (items: T[]) => string;
  /** The line for an empty list. */
  empty: string;
};

export function listingVerb<T>(listing: Listing<T>): Command {
  return {
    name: listing.name,
    summary: listing.summary,
    usage: listing.usage,
    async run(args) {
      const { flags, positionals } = parseFlags({ args, booleans: ['json'] });
      if (positionals.length > 0) throw new CommandError(`unexpected argument "${positionals[0]}"`);
      const items = await listing.fetch();
      const text = flags.json ? JSON.stringify({ [listing.key]: items }) : items.length ? listing.text(items) : listing.empty;
      process.stdout.write(`${text}\n`);
      return 0;
    },
  };
}

/** Rows (the first is the head) as columns two spaces apart, each as wide as its widest cell. */
export function textTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

/** A time as "how long ago" (the listings' LAST and UPDATED columns). */
export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}
