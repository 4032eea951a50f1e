// usage-limit.ts: follows whether an agent is at its usage limit, from its transcript's lines. What a
// line says is the agent room's to read (claude: its synthetic `usage_limit_reached` reply; Codex: the
// turn that failed with `usage_limit_exceeded` and the rate limits before it); this only keeps the
// state and tells the runner when it changed (docs/decisions/usage-limits.md).

/** What one line says: the agent stopped at its limit until `resetsAt` (epoch ms), it answered
 *  again (the limit is over), or nothing about limits. */
export type LimitSign = { resetsAt: number } | 'over' | null;

/** The limit after a read: a reset time, null (not limited), or undefined when the read changed nothing. */
export type LimitChange = { resetsAt: number } | null | undefined;

/** `sign` reads one line: the raw text, or the record when the reader has parsed it already. */
export function createLimitFollower<L = string>(sign: (line: L) => LimitSign) {
  let resetsAt: number | null = null;
  return {
    take(lines: readonly L[]): LimitChange {
      const before = resetsAt;
      for (const line of lines) {
        const said = sign(line);
        if (said === 'over') resetsAt = null;
        else if (said) resetsAt = said.resetsAt;
      }
      if (resetsAt === before) return undefined;
      return resetsAt === null ? null : { resetsAt };
    },
  };
}

/** A reset time an agent wrote in seconds since the epoch, as ms; null when it is not one. */
export function resetSeconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value < 1e11 ? Math.round(value * 1000) : null;
}
