// model-picker.ts: a PTY opencode's model switched from the phone the way its desk does: its `/models`
// picker (1.18.33, seen at 110×35):
//
//     Select model                          esc      its title row
//
//     Fake Model 2                                   the Search row: what was typed
//
//     Fake Model 2                    Fake           one row per match: its name, then its provider
//
//     Connect provider ctrl+a  Favorite ctrl+f       the hint row
//
// The phone names `provider/model`; the picker shows display names, so both names come from its
// server's provider list first (an id it does not offer is refused there, before any key). The name
// is typed as the search; with a search its highlight starts on the first match (bundle: the
// selection goes to 0 when the filter is not empty) and is drawn by colour alone, so Down is pressed
// as many times as the row asked for is below the first, then Enter; its input box's last row then
// names the model (`Build · Fake Model 2 Fake`), read back before the switch counts as done.
import type { ScreenRow } from '../../screen/prompt-state.ts';
import type { ScreenModel } from '../../screen/screen.ts';
import { readScreenUntil } from '../../screen/read-until.ts';
import { authorization, type OpencodeServer } from './server-link.ts';
import { opencodeAgentShown } from './screen.ts';

const KEY = { esc: '\x1b', enter: '\r', down: '\x1b[B' };
/** How long its TUI may take to draw what a key asked for, read every pollMs; its selection moves
 *  to the first match on a timer after the search changes (filterSettleMs). */
const WAIT = { settleMs: 5_000, pollMs: 60, filterSettleMs: 300, lookupMs: 10_000 };
/** Its title row; the chat behind the dialog shows at its left. */
const TITLE = /Select model\s+esc$/;
const HINT = /^Connect provider\b/;

export type ModelSwitch = { ok: true; model: string; effort: null } | { ok: false; reason: string };
type Named = { model: string; name: string; provider: string };

/** The server of the TUI this runner runs (one per runner process), while it runs (pty.ts). */
let live: OpencodeServer | null = null;
export function servingTui(server: OpencodeServer | null): void {
  live = server;
}

/** The display names of `provider/model` in its server's provider list, or why it has none. */
export async function offeredModel(server: OpencodeServer, model: string): Promise<Named | string> {
  const slash = model.indexOf('/');
  if (slash < 1) return `opencode names a model provider/model, not ${model}`;
  const response = await fetch(`${server.url}/config/providers`, { headers: { authorization: authorization(server) }, signal: AbortSignal.timeout(WAIT.lookupMs) });
  if (!response.ok) return `opencode's server did not list its models (HTTP ${response.status})`;
  const body = (await response.json()) as { providers?: Array<{ id?: string; name?: string; models?: Record<string, { name?: string }> }> };
  const provider = body.providers?.find((p) => p.id === model.slice(0, slash));
  const entry = provider?.models?.[model.slice(slash + 1)];
  if (!provider || !entry) return `opencode offers no model ${model}`;
  return { model, name: entry.name ?? model.slice(slash + 1), provider: provider.name ?? provider.id! };
}

/** The picker on screen: what its Search row shows and its match rows (name, provider), or null.
 *  Read from the title's column on: the chat and input box behind it show at their left. */
export function readModelPicker(rows: readonly ScreenRow[]): { search: string; matches: Array<{ name: string; provider: string }> } | null {
  const title = rows.findIndex((row) => TITLE.test(row.text.trimEnd()));
  if (title < 0 || title + 1 >= rows.length) return null;
  // The current model's `●` is drawn two columns left of the names.
  const from = Math.max(0, rows[title]!.text.indexOf('Select model') - 2);
  const text = rows.map((row) => row.text.slice(from).trim());
  // A blank row under the title, the Search row, a blank row, the matches, a blank row, the hints.
  const search = title + 2;
  if (search >= text.length) return null;
  const matches: Array<{ name: string; provider: string }> = [];
  for (const row of text.slice(search + 2)) {
    if (!row || HINT.test(row)) break;
    const [name = '', provider = ''] = row.replace(/^●\s*/, '').split(/\s{2,}/);
    matches.push({ name: name.trim(), provider: provider.trim() });
  }
  return { search: text[search]!, matches };
}

const until = <T>(screen: Pick<ScreenModel, 'state'>, seen: (rows: readonly ScreenRow[]) => T | null): Promise<T | null> => readScreenUntil({ screen, seen, ms: WAIT.settleMs, pollMs: WAIT.pollMs });

/** Agent.models.switchTo for opencode. Called at an idle, empty prompt (the runner's queue waits). */
export async function switchOpencodeModel(o: { model: string | null; effort: string | null; screen: Pick<ScreenModel, 'state'>; write: (data: string) => void }): Promise<ModelSwitch> {
  if (!o.model) return { ok: false, reason: 'opencode has no effort setting' };
  if (!live) return { ok: false, reason: "opencode's server is not known to this runner" };
  const named = await offeredModel(live, o.model);
  if (typeof named === 'string') return { ok: false, reason: named };
  const giveUp = (reason: string): ModelSwitch => (o.write(KEY.esc), { ok: false, reason });
  o.write('/models');
  if (!(await until(o.screen, (rows) => (rows.some((row) => row.text.includes('/models')) ? true : null)))) return giveUp('opencode did not take /models');
  o.write(KEY.enter);
  if (!(await until(o.screen, readModelPicker))) return giveUp('opencode drew no model picker for /models');
  o.write(named.name);
  const picker = await until(o.screen, (rows) => {
    const read = readModelPicker(rows);
    return read && read.search === named.name ? read : null;
  });
  if (!picker) return giveUp(`opencode's picker did not take the search ${named.name}`);
  await new Promise((resolve) => setTimeout(resolve, WAIT.filterSettleMs));
  const index = picker.matches.findIndex((row) => row.name === named.name && row.provider === named.provider);
  if (index < 0) return giveUp(`opencode's picker does not list ${named.name} (${named.provider})`);
  for (let i = 0; i < index; i++) o.write(KEY.down);
  o.write(KEY.enter);
  const shown = `· ${named.name} ${named.provider}`;
  const row = await until(o.screen, (rows) => {
    const agent = opencodeAgentShown(rows);
    const text = rows.map((r) => r.text).find((t) => t.includes(shown));
    return agent !== null && text ? text : null;
  });
  if (!row) return { ok: false, reason: `opencode's input box does not name ${named.name} (${named.provider}) after the picker` };
  return { ok: true, model: named.model, effort: null };
}
