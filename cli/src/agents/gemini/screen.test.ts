// Reads screens captured from the real Gemini CLI 0.58.0 and 0.61.0 at 110×35 (screen-fixtures/*.ans:
// `tmux capture-pane -e`, its styles kept, so the placeholder is dim as drawn) as tether runs it:
// yolo, with a BeforeTool hook that answered `ask` so its own dialog came up; its own questions
// (ask_user, *question*.ans) were serialized from the runner's screen by @xterm/addon-serialize.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScreenModel } from '../../screen/screen.ts';
import { geminiScreen, readGeminiPrompt } from './screen.ts';

const VERSIONS = ['0.58.0', '0.61.0'];

async function screenOf(version: string, name: string) {
  const text = readFileSync(join(import.meta.dirname, 'screen-fixtures', `gemini-${version}-${name}.ans`), 'utf8');
  const screen = createScreenModel({ cols: 110, rows: 35, readPrompt: readGeminiPrompt });
  screen.write(new TextEncoder().encode(text.replace(/\n$/, '').replaceAll('\n', '\r\n')));
  const state = await screen.state();
  const dialog = geminiScreen.readDialog(state.lines);
  screen.stop();
  return { prompt: state.promptState, dialog, mode: geminiScreen.footerMode(state.lines), asksToo: geminiScreen.ownPolicyAsks(state.lines) };
}

describe.each(VERSIONS)('Gemini CLI %s screens', (version) => {
  it('reads an idle, empty input', async () => {
    const { prompt, dialog } = await screenOf(version, 'idle');
    expect(prompt).toEqual({ kind: 'ready', inputEmpty: true });
    expect(dialog).toBeNull();
  });

  it('reads typed text as a non-empty input', async () => {
    expect((await screenOf(version, 'typed')).prompt).toEqual({ kind: 'ready', inputEmpty: false });
  });

  it('reads a turn under way as busy (the spinner above the rule)', async () => {
    expect((await screenOf(version, 'busy')).prompt).toEqual({ kind: 'busy' });
  });

  it('reads its shell permission as a numbered choice', async () => {
    const { prompt, dialog } = await screenOf(version, 'shell-dialog');
    expect(prompt).toEqual({ kind: 'starting' });
    expect(dialog).not.toBeNull();
    expect(dialog!.numbered).toBe(true);
    expect(dialog!.options.map((o) => o.label)).toEqual(['Allow once', 'Allow for this session', 'No, suggest changes (esc)']);
    expect(dialog!.options.map((o) => o.key)).toEqual(['1', '2', '3']);
    expect(dialog!.cursor).toBe(0);
    expect(dialog!.text.join('\n')).toContain('touch made.txt && echo hi-there');
  });

  it('reads its file-write permission with its four choices', async () => {
    const { dialog } = await screenOf(version, 'write-dialog');
    expect(dialog!.options.map((o) => o.label)).toEqual(['Allow once', 'Allow for this session', 'Modify with external editor', 'No, suggest changes (esc)']);
    expect(dialog!.text.join('\n')).toContain('Apply this change?');
  });

  it('reads its shell permission with the question as headline and the command it is about', async () => {
    const { dialog } = await screenOf(version, 'shell-dialog');
    expect(dialog!.headline).toBe('Allow execution of [Shell]?');
    // Its `?` mark column is no part of the title.
    expect(dialog!.title).toMatch(/^Shell\b/);
    expect(dialog!.about).toEqual({ kind: 'command', text: 'touch made.txt && echo hi-there' });
    expect(dialog!.freeText).toBeUndefined();
  });

  it('reads its file-write permission with the file it writes', async () => {
    const { dialog } = await screenOf(version, 'write-dialog');
    expect(dialog!.headline).toBe('Apply this change?');
    expect(dialog!.about).toEqual({ kind: 'file', text: 'b.txt' });
  });

  it('reads its own question (ask_user): the box title, the question as headline, the custom value as a text field', async () => {
    const { prompt, dialog } = await screenOf(version, 'question');
    expect(prompt).toEqual({ kind: 'starting' });
    expect(dialog).toMatchObject({ title: 'Answer Questions', headline: 'Which database should the service use?', numbered: true, cursor: 0 });
    expect(dialog!.options).toEqual([
      { key: '1', label: 'SQLite', detail: 'one file' },
      { key: '2', label: 'PostgreSQL', detail: 'a server' },
      { key: '3', label: 'Enter a custom value' },
    ]);
    expect(dialog!.freeText).toEqual({ key: '3', focused: false, typed: '', placeholder: 'Enter a custom value' });
    expect(dialog!.about).toBeUndefined();
  });

  it('reads the custom value focused (its cursor drawn), then what was typed in it; the question stays the same', async () => {
    const first = (await screenOf(version, 'question')).dialog!;
    const focused = (await screenOf(version, 'question-focused')).dialog!;
    const typed = (await screenOf(version, 'question-typed')).dialog!;
    expect(focused.freeText).toEqual({ key: '3', focused: true, typed: '', placeholder: 'Enter a custom value' });
    expect(typed.freeText).toEqual({ key: '3', focused: true, typed: 'my own db' });
    expect(focused.cursor).toBe(2);
    expect(new Set([first.identity, focused.identity, typed.identity]).size).toBe(1);
    expect(typed.signature).not.toBe(first.signature);
  });

  it('reads a text question as one focused field with no options', async () => {
    const empty = (await screenOf(version, 'text-question')).dialog!;
    expect(empty).toMatchObject({ title: 'Answer Questions', headline: 'What should the new module be called?', options: [] });
    expect(empty.freeText).toEqual({ focused: true, typed: '', placeholder: 'a module name' });
    const typed = (await screenOf(version, 'text-question-typed')).dialog!;
    expect(typed.freeText).toEqual({ focused: true, typed: 'tether-core' });
    expect(typed.identity).toBe(empty.identity);
  });

  it('reads the prompt again once the choice was cancelled', async () => {
    const { prompt, dialog } = await screenOf(version, 'cancelled');
    expect(prompt).toEqual({ kind: 'ready', inputEmpty: true });
    expect(dialog).toBeNull();
  });
});

describe('Gemini between turns', () => {
  const row = (text: string) => ({ text, strong: text });
  const bottom = (statusRow: string) => [
    row('Tips for getting started:'),
    row(''),
    row(statusRow),
    row('─'.repeat(110)),
    row(' YOLO Ctrl+Y'),
    row(''),
    row(' *    '), // the empty input: its mark, its cursor cell, the placeholder blanked (dim)
    row(''),
    row(' workspace (/directory)                                    sandbox                                     /model'),
  ];
  it('reads its SessionStart hook running (its label above the rule, no spinner) as busy, and ready once it is gone', () => {
    // The row as seen at 110 columns on 0.61.0 while `tether hook session-start` ran (a start probe).
    expect(readGeminiPrompt({ rows: bottom('  Executing Hook: tether session-start' + ' '.repeat(56) + '? for shortcuts'), seenReady: true })).toEqual({ kind: 'busy' });
    expect(readGeminiPrompt({ rows: bottom(' '.repeat(94) + '? for shortcuts'), seenReady: true })).toEqual({ kind: 'ready', inputEmpty: true });
  });
});

// Recorded with `tmux capture-pane -e` from `gemini --approval-mode yolo` in a fresh git folder. Both
// pins name the folder only by its base name ("Trust folder (project)"): no path on screen to read.
describe.each(VERSIONS)('Gemini CLI %s folder trust (security.folderTrust on, an untrusted folder)', (version) => {
  it('reads its title as the question (it asks), with no headline apart from it', async () => {
    const { dialog } = await screenOf(version, 'folder-trust');
    expect(dialog).toMatchObject({ title: 'Do you trust the files in this folder?', numbered: true });
    expect(dialog!.headline).toBeUndefined();
    expect(dialog!.options.map((o) => o.label)).toEqual(['Trust folder (project)', expect.stringMatching(/^Trust parent folder \(/), "Don't trust"]);
    expect(dialog!.freeText).toBeUndefined();
  });
});

// The desk's Shift+Tab from tether's yolo (desk-*.ans, `tmux capture-pane -e` after each press):
// auto-accept edits, then plan (on by default at both pins), then default; Ctrl+Y back to yolo.
describe.each(VERSIONS)('Gemini CLI %s mode row', (version) => {
  it("reads tether's yolo as no desk mode: the gate is the mode, and Gemini asks nothing again", async () => {
    expect(await screenOf(version, 'idle')).toMatchObject({ mode: null, asksToo: false });
  });

  it.each([
    ['desk-auto-edit', 'acceptEdits'],
    ['desk-plan', 'plan'],
    ['desk-default', 'default'],
  ])('reads the desk taking it to %s as %s, where its own policy asks too', async (name, mode) => {
    expect(await screenOf(version, name)).toMatchObject({ prompt: { kind: 'ready', inputEmpty: true }, mode, asksToo: true });
  });

  it('reads no mode while a dialog replaces the input', async () => {
    expect(await screenOf(version, 'shell-dialog')).toMatchObject({ mode: null, asksToo: null });
  });
});
