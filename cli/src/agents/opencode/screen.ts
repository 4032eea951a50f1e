// screen.ts: how opencode's TUI draws its state (1.18.33; 1.17.0 alike but for its placeholder), for
// the runner's prompt typing. Its chat, turns and permission requests are read from its server, not
// from here (bridge.ts); the screen says only when a prompt may be typed. Drawn:
//
//   ┃  Ask anything… "…"            the input box: a bar down its left edge; the placeholder (1.17.0
//                                   writes "Ask anything..."), or typed text
//   ┃  Build · Fake Model Fake      its agent and model (name, then provider), the box's last row
//   ╹▀▀▀▀▀▀▀▀                        its bottom edge
//   ⬝⬝■■  esc interrupt             while a turn runs
//   △ Permission required           its permission dialog, which replaces the input box
import type { AgentScreen } from '../agent.ts';
import type { PromptState, ScreenRow } from '../../screen/prompt-state.ts';
import type { PermissionMode } from '@tether/shared';
import { OPENCODE_MODES } from './launch.ts';

const BAR = '┃';
/** The box's last row: its agent (Build, Plan, or one of the person's own) and model. */
const AGENT_ROW = /^┃\s+\S[^·]*·\s+\S/;
const BOTTOM_EDGE = /^╹▀+/;
const PLACEHOLDER = /^Ask anything(…|\.\.\.)/;
const BUSY = /\binterrupt\b/;
const DIALOG = /Permission required/;

const rowText = (row: ScreenRow) => row.text.trim();

/** The agent its input box's last row names ("Build · Fake Model Fake" → "Build"; "Build auto · …"
 *  with its own auto-approve on; "Shell" in its shell mode), or null while no input box is drawn. */
export function opencodeAgentShown(rows: readonly ScreenRow[]): string | null {
  const edge = rows.findLastIndex((row) => BOTTOM_EDGE.test(rowText(row)));
  const row = edge >= 1 ? rowText(rows[edge - 1]!) : '';
  if (!AGENT_ROW.test(row)) return null;
  return row.slice(BAR.length, row.indexOf('·')).trim().split(/\s+/)[0]!;
}

/** The mode an agent it names is (Build → default, Plan → plan), or null for another agent. */
export function opencodeModeOf(agent: string | null): PermissionMode | null {
  if (agent === null) return null;
  const found = Object.entries(OPENCODE_MODES).find(([, name]) => name === agent.toLowerCase());
  return found ? (found[0] as PermissionMode) : null;
}

/** The rows inside the input box, above its agent row (null: no input box drawn). */
function inputRows(rows: readonly ScreenRow[]): string[] | null {
  const edge = rows.findLastIndex((row) => BOTTOM_EDGE.test(rowText(row)));
  if (edge < 1 || !AGENT_ROW.test(rowText(rows[edge - 1]!))) return null;
  const inside: string[] = [];
  for (let i = edge - 2; i >= 0 && rowText(rows[i]!).startsWith(BAR); i--) inside.unshift(rowText(rows[i]!).slice(BAR.length).trim());
  return inside;
}

export function readOpencodePrompt(o: { rows: readonly ScreenRow[] }): PromptState {
  const text = o.rows.map(rowText);
  if (text.some((row) => DIALOG.test(row))) return { kind: 'dialog' };
  const input = inputRows(o.rows);
  if (!input) return { kind: 'starting' };
  // The busy footer is drawn below the box's edge.
  const edge = o.rows.findLastIndex((row) => BOTTOM_EDGE.test(rowText(row)));
  if (text.slice(edge + 1).some((row) => BUSY.test(row))) return { kind: 'busy' };
  return { kind: 'ready', inputEmpty: input.every((row) => row === '' || PLACEHOLDER.test(row)) };
}

export const opencodeScreen: AgentScreen = {
  // Ready waits for the bridge to hear its server too (HookInstall.hearing, pty.ts).
  readPrompt: readOpencodePrompt,
  // Its agent (Tab at the desk) is the session's mode: build or plan; another of the person's is none.
  footerMode: (rows) => opencodeModeOf(opencodeAgentShown(rows)),
  // Its permission dialog is answered through its server (bridge.ts), never read off the screen: a
  // dialog read here would ask the person a second time.
  readDialog: () => null,
};
