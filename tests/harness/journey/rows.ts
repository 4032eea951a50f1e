// rows.ts (harness/journey): the journey table, one row per agent (row.ts says what a row holds).
import { claudeRow } from './claude.ts';
import { codexRow } from './codex.ts';
import { geminiRow } from './gemini.ts';
import type { JourneyRow } from './row.ts';

export const JOURNEY_ROWS: JourneyRow[] = [claudeRow, codexRow, geminiRow];
