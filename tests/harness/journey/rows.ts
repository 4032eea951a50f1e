// rows.ts (harness/journey): the journey table, one row per agent (row.ts says what a row holds).
// TETHER_JOURNEY_AGENTS (a comma list) walks only those rows: `npm run <agent>:check` walks its own
// agent's row against a new release, which the other agents' pins say nothing about.
import { claudeRow } from './claude.ts';
import { codexRow } from './codex.ts';
import { geminiRow } from './gemini.ts';
import { opencodeRow } from './opencode.ts';
import type { JourneyRow } from './row.ts';

const ALL: JourneyRow[] = [claudeRow, codexRow, geminiRow, opencodeRow];

function chosen(list: string | undefined): JourneyRow[] {
  if (!list) return ALL;
  const names = list.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !ALL.some((row) => row.agent === name));
  if (unknown.length > 0) throw new Error(`TETHER_JOURNEY_AGENTS names no journey row: ${unknown.join(', ')}`);
  return ALL.filter((row) => names.includes(row.agent));
}

export const JOURNEY_ROWS: JourneyRow[] = chosen(process.env.TETHER_JOURNEY_AGENTS);
