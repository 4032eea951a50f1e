// Reads screens captured from the real Gemini CLI 0.58.0 and 0.61.0 at 110×35 (screen-fixtures/*.ans:
// `tmux capture-pane -e`, its styles kept, so the placeholder is dim as drawn) as tether runs it:
// yolo, with a BeforeTool hook that answered `ask` so its own dialog came up.
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
  return { prompt: state.promptState, dialog };
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
