// model-picker.ts: switching a PTY Codex's model and effort the way its desk does. Codex's `/model`
// takes no argument; it opens a picker (0.169.0, 0.171.0 at 110×35):
//
//     Select Model and Effort                      a title row
//   › 1. GPT-6.2-Sol    Fast, go-to model …         numbered rows: a name, 2+ spaces, a description;
//     2. GPT-6.2-Astra (current)  Our most …        `›` on the highlighted one, "(current)" on the model
//   ↓                                               in use; an arrow row when more rows are below
//     enter select · esc back                       the hint row
//
// and, once a model is chosen, the same list shape for its reasoning levels ("Low (default)", …,
// "Extra high"), whose hint offers `s` for "this session only". The picker is read by that structure
// (which rows are numbered, which is highlighted, which is current), never by its title's words:
// the arrows move the highlight, one key at a time, reading the screen between keys, until the row
// asked for is highlighted. `s` (this session only) keeps Codex from writing the choice to the
// user's config.toml. The phone names a model by its slug (`gpt-6.2-sol`); the picker shows display
// names, which are the slug in other letters ("GPT-6.2-Sol"), so only a listed model can be chosen.
import type { ScreenRow } from '../../screen/prompt-state.ts';
import type { ScreenModel } from '../../screen/screen.ts';
import { readScreenUntil } from '../../screen/read-until.ts';
import { findCodexInput } from './screen.ts';

export type PickerRow = { number: number; name: string; highlighted: boolean; current: boolean; isDefault: boolean };
export type Picker = { title: string; rows: PickerRow[]; hint: string };
export type ModelSwitch = { ok: true; model: string; effort: string | null } | { ok: false; reason: string };

const NUMBERED = /^(›|\s)\s*(\d+)\.\s+(\S.*)$/;
const UP = '\x1b[A';
const DOWN = '\x1b[B';
const ESC = '\x1b';
const ENTER = '\r';
/** How long Codex may take to draw what a key asked for. */
const SETTLE_MS = 4_000;
const POLL_MS = 50;
/** More than any list Codex has drawn (11 models), so every row is reached. */
const MAX_MOVES = 40;
/** Keys Codex may ignore (dropped while it redraws) before the highlight is taken as stuck. */
const MAX_UNANSWERED = 3;
/** Codex's reasoning levels as the phone names them → the words of the picker's rows. */
const EFFORT_WORDS: Record<string, string> = { xhigh: 'extra high' };

/** A row's name without the marks Codex adds to it: "GPT-6.2-Astra (current)" → "GPT-6.2-Astra". */
function parseRow(o: { highlighted: boolean; number: number; rest: string }): PickerRow {
  const name = o.rest.split(/\s{2,}/)[0]!.trim();
  const marks = [...name.matchAll(/\s*\(([^)]*)\)/g)].map((m) => m[1]!.toLowerCase());
  return { number: o.number, name: name.replace(/\s*\([^)]*\)/g, '').trim(), highlighted: o.highlighted, current: marks.includes('current'), isDefault: marks.includes('default') };
}

function numberedRow(text: string): PickerRow {
  const [, marker, number, rest] = text.match(NUMBERED)!;
  return parseRow({ highlighted: marker === '›', number: Number(number), rest: rest! });
}

/** A row of the list with no number drawn: Codex 0.171.0 draws none from the tenth row on. */
const UNNUMBERED = /^(›|\s)(\s*)(\S.*)$/;
const ARROW_ROW = /^\s*[↑↓]\s*$/;

/** The list on screen: the lowest block of numbered rows, and the rows just below it whose names
 *  start in the same column (numbers not drawn), with exactly one highlighted; its title (the
 *  non-empty row above it) and its hint (the first row below it that is no scroll arrow). */
export function readPicker(rows: readonly ScreenRow[]): Picker | null {
  let last = rows.length - 1;
  while (last >= 0 && !NUMBERED.test(rows[last]!.text)) last--;
  if (last < 0) return null;
  let first = last;
  while (first > 0 && NUMBERED.test(rows[first - 1]!.text)) first--;
  const listed = rows.slice(first, last + 1).map((row) => numberedRow(row.text));
  const nameColumn = rows[last]!.text.match(/^.*?\d+\.\s+/)![0].length;
  for (let next = last + 1; next < rows.length; next++) {
    const match = rows[next]!.text.match(UNNUMBERED);
    const column = match ? 1 + match[2]!.length : -1;
    // A name in (about) the numbered names' column; a wrapped description sits further right.
    if (!match || column < nameColumn || column > nameColumn + 2) break;
    listed.push(parseRow({ highlighted: match[1] === '›', number: listed.at(-1)!.number + 1, rest: match[3]! }));
    last = next;
  }
  if (listed.filter((row) => row.highlighted).length !== 1) return null;
  const above = rows.slice(0, first).filter((row) => row.text.trim() !== '' && !ARROW_ROW.test(row.text));
  const below = rows.slice(last + 1).filter((row) => row.text.trim() !== '' && !ARROW_ROW.test(row.text));
  return { title: above.at(-1)?.text.trim() ?? '', rows: listed, hint: below[0]?.text.trim() ?? '' };
}

/** The hint offers this key: a `·`-separated part that starts with it ("s session"). */
export function hintOffers(picker: Picker, key: string): boolean {
  return picker.hint.split('·').some((part) => part.trim().split(/\s+/)[0] === key);
}

const words = (text: string) => text.toLowerCase().replace(/[^a-z0-9.]+/g, ' ').trim();
/** A display name names the slug: the same words ("GPT-6.1 Terra" is `gpt-6.1-terra`). */
export const namesModel = (row: PickerRow, slug: string) => words(row.name) === words(slug);
export const namesEffort = (row: PickerRow, level: string) => words(row.name) === words(EFFORT_WORDS[level] ?? level);

/** "Model changed to gpt-6.2-astra high …" above the input row once the picker closed. */
export function readChange(rows: readonly ScreenRow[]): { model: string; effort: string | null } | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const found = rows[i]!.text.match(/changed to (\S+)(?:\s+(\S+))?/i);
    if (found) return { model: found[1]!, effort: found[2] && !/^for$/i.test(found[2]) ? found[2] : null };
  }
  return null;
}

type Driver = { screen: Pick<ScreenModel, 'state'>; write: (data: string) => void; settleMs: number };

/** Reads the screen until `seen` finds what it looks for, or the settle time passes (null). */
const until = <T>(d: Driver, seen: (rows: readonly ScreenRow[]) => T | null): Promise<T | null> => readScreenUntil({ screen: d.screen, seen, ms: d.settleMs, pollMs: POLL_MS });

/** Moves the highlight to the row `wanted` finds, a key at a time; false when no row is one (the
 *  list went round, or stopped moving). */
async function highlight(d: Driver, wanted: (row: PickerRow) => boolean): Promise<boolean> {
  const visited = new Set<string>();
  let unanswered = 0;
  for (let move = 0; move < MAX_MOVES; move++) {
    const picker = await until(d, readPicker);
    if (!picker) return false;
    const at = picker.rows.find((row) => row.highlighted)!;
    if (wanted(at)) return true;
    visited.add(at.name);
    const target = picker.rows.find(wanted);
    // A row on screen: straight to it. None: down, the list scrolls on.
    const key = target && target.number < at.number ? UP : DOWN;
    d.write(key);
    const moved = await until(d, (rows) => {
      const now = readPicker(rows)?.rows.find((row) => row.highlighted);
      return now && now.name !== at.name ? now : null;
    });
    if (!moved) {
      if (++unanswered > MAX_UNANSWERED) return false;
      continue;
    }
    if (!target && visited.has(moved.name)) return false; // went round
  }
  return false;
}

/** Leaves the picker (each Esc steps back a list, until the input row is back) and says why the
 *  switch did not happen. */
async function giveUp(d: Driver, reason: string): Promise<ModelSwitch> {
  const back = (rows: readonly ScreenRow[]) => (!readPicker(rows) && findCodexInput(rows) ? true : null);
  for (let i = 0; i < 3 && !back((await d.screen.state()).lines); i++) {
    d.write(ESC);
    await until(d, back);
  }
  return { ok: false, reason };
}

/** Agent.models.switchTo for Codex. `model` null keeps the current model (an effort change alone:
 *  the row Codex marks current); `effort` null keeps the level the list marks current, else its
 *  default. Call at an idle, empty prompt (the runner's queue waits for one). */
export async function switchCodexModel(o: { model: string | null; effort: string | null; screen: Pick<ScreenModel, 'state'>; write: (data: string) => void; settleMs?: number }): Promise<ModelSwitch> {
  const d: Driver = { screen: o.screen, write: o.write, settleMs: o.settleMs ?? SETTLE_MS };
  if (!findCodexInput((await d.screen.state()).lines)) return { ok: false, reason: 'Codex shows no input row' };
  d.write('/model');
  if (!(await until(d, (rows) => (findCodexInput(rows)?.typed.trim().startsWith('/model') ? true : null)))) return giveUp(d, 'Codex did not take /model');
  d.write(ENTER);
  const models = await until(d, readPicker);
  if (!models) return giveUp(d, 'Codex drew no model list for /model');
  const wantModel = (row: PickerRow) => (o.model ? namesModel(row, o.model) : row.current);
  if (!(await highlight(d, wantModel))) {
    const listed = models.rows.map((row) => row.name).join(', ');
    return giveUp(d, o.model ? `Codex's model list has no ${o.model} (it lists ${listed}${models.rows.length >= 8 ? ', …' : ''})` : "Codex's model list marks no model as current");
  }
  d.write(ENTER);
  // Its reasoning levels (a list under another title), or straight back to the input row.
  const next = await until(d, (rows) => {
    const picker = readPicker(rows);
    if (picker && picker.title !== models.title) return picker;
    return !picker && findCodexInput(rows) ? 'closed' : null;
  });
  if (!next) return giveUp(d, 'Codex did not move on from its model list');
  if (next !== 'closed') {
    const wantEffort = (row: PickerRow) => (o.effort ? namesEffort(row, o.effort) : next.rows.some((r) => r.current) ? row.current : row.isDefault);
    if (!(await highlight(d, wantEffort))) return giveUp(d, `Codex offers no ${o.effort ?? 'current'} reasoning level for this model`);
    d.write(hintOffers(next, 's') ? 's' : ENTER);
  }
  const closed = await until(d, (rows) => (!readPicker(rows) && findCodexInput(rows) ? rows : null));
  if (!closed) return giveUp(d, 'Codex kept its picker open');
  const change = readChange(closed);
  if (!change) return { ok: false, reason: 'Codex did not say which model it changed to' };
  // An older line could still be on screen: what it says must be what was asked.
  if ((o.model && change.model !== o.model) || (o.effort && change.effort !== o.effort)) return { ok: false, reason: `Codex says it changed to ${change.model} ${change.effort ?? ''}`.trim() };
  return { ok: true, model: change.model, effort: change.effort };
}
