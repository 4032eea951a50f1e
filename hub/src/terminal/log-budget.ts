// log-budget.ts: how much replay each live terminal may keep when all of them share one hub-wide
// budget (issue 13: N=1,000 sessions in ≤ 500 MB). A smaller log never costs correctness: a viewer
// whose offset was trimmed gets a snapshot instead of a byte replay.
import { DEFAULT_TERMINAL_LOG_BYTES } from './byte-log.ts';

/** All terminal logs of one hub together, by default. At 1,000 live terminals that is 256 KiB each. */
export const DEFAULT_TERMINAL_MEMORY_BYTES = 256 * 1024 * 1024;

/** The least a live terminal keeps however many there are: a few full redraws of a large screen
 *  (a 250x80 screen with colours is ~100 KiB), so a short drop still replays bytes. Past
 *  budget ÷ floor terminals the total grows as N × floor instead of starving every log. */
export const TERMINAL_LOG_FLOOR_BYTES = 128 * 1024;

/** clamp(budget ÷ live, floor, max); the max (the per-terminal setting) wins over the floor. The
 *  total is then at most max(budget, live × floor). */
export function terminalLogCap(options: { budget: number; live: number; floor?: number; max?: number }): number {
  const floor = options.floor ?? TERMINAL_LOG_FLOOR_BYTES;
  const max = options.max ?? DEFAULT_TERMINAL_LOG_BYTES;
  const share = Math.floor(options.budget / Math.max(1, options.live));
  return Math.min(max, Math.max(floor, share));
}

/** A budget given in MiB (`tether hub --terminal-memory`, TETHER_TERMINAL_MEMORY_MB) in bytes, or a
 *  message saying what is wrong with it. */
export function parseTerminalMemoryMb(value: string): { bytes: number } | { error: string } {
  const mb = value.trim() === '' ? Number.NaN : Number(value);
  const floorMb = TERMINAL_LOG_FLOOR_BYTES / (1024 * 1024);
  if (!Number.isFinite(mb)) return { error: `must be a number of MiB, got "${value}"` };
  if (mb < floorMb) return { error: `must be at least ${floorMb} MiB (one terminal's floor, ${TERMINAL_LOG_FLOOR_BYTES / 1024} KiB), got "${value}"` };
  return { bytes: Math.floor(mb * 1024 * 1024) };
}
