// model-picker.test.ts: a PTY Codex's model and effort switched through its `/model` picker, read from
// real screens of both pinned versions (screen-fixtures/codex-<version>-*.txt, 110×35). A fake Codex
// redraws those screens as the keys arrive: the highlight moves with the arrows, Enter opens the
// reasoning levels, `s` or Enter closes with "Model changed to …", Esc steps back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScreenRow } from '../../screen/prompt-state.ts';
import type { ScreenModel } from '../../screen/screen.ts';
import { hintOffers, namesModel, readChange, readPicker, switchCodexModel } from './model-picker.ts';

const VERSIONS = ['0.169.0', '0.171.0'] as const;
const fixture = (version: string, name: string) => readFileSync(join(import.meta.dirname, 'screen-fixtures', `codex-${version}-${name}.txt`), 'utf8').split('\n');
const rowsOf = (lines: string[]): ScreenRow[] => lines.map((text) => ({ text, strong: text }));
const NUMBERED = /^(›|\s)(\s*\d+\.\s)/;

/** A Codex at its idle prompt whose picker is drawn from the version's fixtures. `extraModels`: rows
 *  below the fixture's 8 (a list longer than its window scrolls). `wraps`: ↓ on the last row goes to
 *  the first. `dropFirstKey`: the first arrow is ignored (a key lost while Codex redraws). */
function fakeCodex(version: string, options: { extraModels?: string[]; wraps?: boolean; dropFirstKey?: boolean; current?: string } = {}) {
  const idle = fixture(version, 'idle');
  const inputAt = idle.findIndex((line) => line.startsWith('›'));
  const modelScreen = fixture(version, 'model-list');
  const first = modelScreen.findIndex((line) => NUMBERED.test(line));
  const fixtureModels = modelScreen.filter((line) => NUMBERED.test(line)).map((line) => line.replace(NUMBERED, '').split(/\s{2,}/)[0]!);
  const models = [...fixtureModels, ...(options.extraModels ?? [])];
  const effortScreen = fixture(version, 'effort-list');
  const efforts = effortScreen.filter((line) => NUMBERED.test(line)).map((line) => line.replace(NUMBERED, '').split(/\s{2,}/)[0]!);
  let view: 'idle' | 'models' | 'efforts' = 'idle';
  let typed = '';
  let at = 0;
  let chosen = '';
  let said: string | null = null;
  let dropped = !options.dropFirstKey;
  const keys: string[] = [];
  const slug = (name: string) => name.toLowerCase().replace(/\s+/g, '-');
  const level = (name: string) => (name.replace(/\s*\(.*\)/, '').toLowerCase() === 'extra high' ? 'xhigh' : name.replace(/\s*\(.*\)/, '').toLowerCase());

  const listRows = (names: string[], screen: string[], title: string | null): string[] => {
    const window = Math.max(0, Math.min(at - 7, names.length - 8));
    const shown = names.slice(window, window + 8).map((name, i) => {
      const n = window + i;
      const label = options.current && name === options.current ? `${name} (current)` : name;
      // From the tenth row on no number is drawn (0.171.0: screen-fixtures/*-model-list-scrolled.txt).
      return n < 9 ? `${n === at ? '›' : ' '} ${n + 1}. ${label.padEnd(16)} A model.` : `${n === at ? '›' : ' '}     ${label.padEnd(16)} A model.`;
    });
    const start = screen.findIndex((line) => NUMBERED.test(line));
    const end = start + screen.filter((line) => NUMBERED.test(line)).length;
    const head = screen.slice(0, start);
    if (title) head[head.length - 1] = `  ${title}`;
    return [...head, ...shown, ...(names.length > window + 8 ? ['↓'] : []), ...screen.slice(end).filter((line) => line.trim() !== '↓')];
  };
  const draw = (): string[] => {
    if (view === 'models') return listRows(models, modelScreen, null);
    if (view === 'efforts') return listRows(efforts, effortScreen, `Select Reasoning Level for ${chosen}`);
    const lines = [...idle];
    lines[inputAt] = `› ${typed}`;
    if (said) lines[inputAt - 2] = `• ${said}`;
    return lines;
  };
  const move = (by: number, length: number) => {
    if (!dropped) return void (dropped = true);
    const next = at + by;
    at = options.wraps ? (next + length) % length : Math.max(0, Math.min(length - 1, next));
  };
  const write = (data: string) => {
    keys.push(data);
    if (view === 'idle') {
      if (data === '\r' && typed === '/model') {
        view = 'models';
        typed = '';
        at = Math.max(0, models.indexOf(options.current ?? ''));
      } else if (data !== '\r') typed += data;
      return;
    }
    const list = view === 'models' ? models : efforts;
    if (data === '\x1b[B') move(1, list.length);
    else if (data === '\x1b[A') move(-1, list.length);
    else if (data === '\x1b') view = view === 'efforts' ? 'models' : 'idle';
    else if (data === '\r' && view === 'models') {
      chosen = models[at]!;
      view = 'efforts';
      at = 0;
    } else if ((data === 's' || data === '\r') && view === 'efforts') {
      said = `Model changed to ${slug(chosen)} ${level(efforts[at]!)}${data === 's' ? ' for this session only' : ''}`;
      view = 'idle';
    }
  };
  const screen: Pick<ScreenModel, 'state'> = { state: async () => ({ lines: rowsOf(draw()) }) as Awaited<ReturnType<ScreenModel['state']>> };
  return { screen, write, keys, models, view: () => view };
}

describe.each(VERSIONS)('Codex %s: its /model picker', (version) => {
  it('is read by structure: numbered rows, the highlighted one, the current one, the hint', () => {
    const list = readPicker(rowsOf(fixture(version, 'model-list')))!;
    expect(list.rows).toHaveLength(8);
    expect(list.rows[0]).toMatchObject({ number: 1, highlighted: true, current: false });
    expect(list.rows.every((row) => /^GPT-/.test(row.name))).toBe(true);
    expect(hintOffers(list, 's')).toBe(false);
    const current = readPicker(rowsOf(fixture(version, 'model-list-current')))!;
    expect(current.rows.find((row) => row.current)).toMatchObject({ number: 2, highlighted: true });
    expect(current.rows[1]!.name).not.toContain('current');
    const efforts = readPicker(rowsOf(fixture(version, 'effort-list')))!;
    expect(efforts.title).not.toBe(list.title);
    expect(efforts.rows.map((row) => row.name).slice(0, 4)).toEqual(['Low', 'Medium', 'High', 'Extra high']);
    expect(efforts.rows[0]!.isDefault).toBe(true);
    expect(hintOffers(efforts, 's')).toBe(true);
    expect(readPicker(rowsOf(fixture(version, 'idle')))).toBeNull();
    expect(readChange(rowsOf(fixture(version, 'model-changed')))).toMatchObject({ effort: 'high' });
  });

  it('a scrolled list: the rows in its window, numbered or not, and the one highlighted', () => {
    const list = readPicker(rowsOf(fixture(version, 'model-list-scrolled')))!;
    expect(list.rows).toHaveLength(8);
    const highlighted = list.rows.find((row) => row.highlighted)!;
    expect(highlighted).toMatchObject(version === '0.169.0' ? { number: 9, name: 'GPT-5.5' } : { number: 11, name: 'GPT-5.5' });
    expect(list.rows.map((row) => row.number)).toEqual(version === '0.169.0' ? [2, 3, 4, 5, 6, 7, 8, 9] : [4, 5, 6, 7, 8, 9, 10, 11]);
    expect(hintOffers(list, 'enter')).toBe(true);
  });

  it('switches to a listed model and a reasoning level for this session only, reading between keys', async () => {
    const codex = fakeCodex(version);
    const target = codex.models[3]!;
    const slug = target.toLowerCase().replace(/\s+/g, '-');
    const result = await switchCodexModel({ model: slug, effort: 'xhigh', screen: codex.screen, write: codex.write, settleMs: 300 });
    expect(result).toEqual({ ok: true, model: slug, effort: 'xhigh' });
    expect(codex.keys.filter((key) => key === '\x1b[B')).toHaveLength(3 + 3);
    expect(codex.keys.at(-1)).toBe('s');
    expect(codex.view()).toBe('idle');
  });

  it('reaches a model below the window, and survives a key Codex ignored', async () => {
    // The rows each version lists below its first 8 (seen walking its real picker).
    const extraModels = version === '0.169.0' ? ['GPT-5.5'] : ['GPT-5.6-Terra', 'GPT-5.6-Luna', 'GPT-5.5'];
    const codex = fakeCodex(version, { extraModels, dropFirstKey: true, wraps: true });
    const result = await switchCodexModel({ model: 'gpt-5.5', effort: 'medium', screen: codex.screen, write: codex.write, settleMs: 200 });
    expect(result).toEqual({ ok: true, model: 'gpt-5.5', effort: 'medium' });
  });

  it('an effort alone keeps the model Codex marks current', async () => {
    const codex = fakeCodex(version, { current: fakeCodexModels(version)[1] });
    const result = await switchCodexModel({ model: null, effort: 'high', screen: codex.screen, write: codex.write, settleMs: 200 });
    expect(result).toMatchObject({ ok: true, effort: 'high', model: fakeCodexModels(version)[1]!.toLowerCase().replace(/\s+/g, '-') });
  });

  it('a model Codex does not list is refused, the picker left, nothing chosen', async () => {
    for (const wraps of [false, true]) {
      const codex = fakeCodex(version, { wraps });
      const result = await switchCodexModel({ model: 'gpt-nope', effort: null, screen: codex.screen, write: codex.write, settleMs: 150 });
      expect(result).toMatchObject({ ok: false, reason: expect.stringContaining("Codex's model list has no gpt-nope") });
      expect(codex.view()).toBe('idle');
      expect(codex.keys).not.toContain('\r\r');
      expect(codex.keys.filter((key) => key === '\r')).toHaveLength(1); // only /model's
    }
  });

  it('an effort alone with no current model (one Codex does not list) is refused', async () => {
    const codex = fakeCodex(version);
    const result = await switchCodexModel({ model: null, effort: 'low', screen: codex.screen, write: codex.write, settleMs: 150 });
    expect(result).toEqual({ ok: false, reason: "Codex's model list marks no model as current" });
    expect(codex.view()).toBe('idle');
  });
});

describe('slugs and display names', () => {
  it('a display name names the slug in other letters only', () => {
    const row = (name: string) => ({ number: 1, name, highlighted: false, current: false, isDefault: false });
    expect(namesModel(row('GPT-6.2-Sol'), 'gpt-6.2-sol')).toBe(true);
    expect(namesModel(row('GPT-6.1 Terra'), 'gpt-6.1-terra')).toBe(true);
    expect(namesModel(row('GPT-6.2-Sol'), 'gpt-6.2')).toBe(false);
    expect(namesModel(row('GPT-6.2-Sol'), 'gpt-6-2-sol')).toBe(false);
  });
});

function fakeCodexModels(version: string): string[] {
  return fixture(version, 'model-list')
    .filter((line) => NUMBERED.test(line))
    .map((line) => line.replace(NUMBERED, '').split(/\s{2,}/)[0]!);
}
