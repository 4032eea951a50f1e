// Feeds the bytes real claude wrote (2.1.197, 2.1.330, 2.1.331 against the fake API; fixtures/*.jsonl,
// recorded by probing each dialog) through the screen model and reads the choice off the screen.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScreenModel } from '../../screen/screen.ts';
import { keysFor, type ScreenDialog } from '../../dialogs/read-dialog.ts';
import { readPromptState } from './prompt-state.ts';
import { claudeScreen } from './screen.ts';

const readDialog = claudeScreen.readDialog;

type Entry = { t: number; d: string } | { mark: string };

/** The dialog on screen at `mark` (default: after the last byte). */
async function dialogIn(file: string, options: { folder?: string; mark?: string } = {}): Promise<ScreenDialog | null> {
  const screen = createScreenModel({ cols: 100, rows: 30, readPrompt: readPromptState });
  for (const line of readFileSync(join(import.meta.dirname, options.folder ?? 'dialog-fixtures', file), 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as Entry;
    if ('d' in entry) screen.write(entry.d);
    else if (entry.mark === options.mark) break;
  }
  const { lines } = await screen.state();
  screen.stop();
  return readDialog(lines);
}

const labels = (dialog: ScreenDialog | null) => dialog?.options.map((o) => `${o.key}:${o.label}`);

describe('readDialog on real claude screens', () => {
  it('reads folder trust: numbered in 2.1.197, unnumbered with the marker on "No, exit" in 2.1.330/331', async () => {
    const old = await dialogIn('claude-2.1.197-trust.jsonl');
    expect(old).toMatchObject({ title: 'Accessing workspace:', numbered: true, cursor: 0 });
    expect(labels(old)).toEqual(['1:Yes, I trust this folder', '2:No, exit']);
    for (const version of ['2.1.330', '2.1.331']) {
      const now = await dialogIn(`claude-${version}-trust.jsonl`);
      expect(now).toMatchObject({ title: 'Accessing workspace:', numbered: false, cursor: 0 });
      expect(labels(now)).toEqual(['1:No, exit', '2:Yes, I trust this folder']);
      expect(now!.text.join('\n')).toContain('Claude Code\'ll be able to read, edit, and execute files here.');
      expect(now!.text.join('\n')).not.toContain('❯');
    }
  });

  it('reads "New MCP server found" (three options, marker on the last where unnumbered)', async () => {
    const old = await dialogIn('claude-2.1.197-mcp.jsonl');
    expect(old).toMatchObject({ title: 'New MCP server found in this project: probe', numbered: true, cursor: 0 });
    expect(labels(old)).toEqual(['1:Use this MCP server', '2:Use this and all future MCP servers in this project', '3:Continue without using this MCP server']);
    for (const version of ['2.1.330', '2.1.331']) {
      const now = await dialogIn(`claude-${version}-mcp.jsonl`);
      expect(now).toMatchObject({ title: 'New MCP server found in this project: probe', numbered: false, cursor: 2 });
      expect(labels(now)).toEqual(['1:Use this MCP server', '2:Use this and all future MCP servers in this project', '3:Continue without using this MCP server']);
    }
  });

  it('reads "Detected a custom API key" and the bypass-permissions warning in every version', async () => {
    for (const version of ['2.1.197', '2.1.330', '2.1.331']) {
      const key = await dialogIn(`claude-${version}-apikey.jsonl`);
      expect(key?.title).toBe('Detected a custom API key in your environment');
      expect(labels(key)).toEqual(['1:Yes', '2:No (recommended)']);
      expect(key?.cursor).toBe(1);
      const bypass = await dialogIn(`claude-${version}-bypass.jsonl`);
      expect(bypass?.title).toBe('WARNING: Claude Code running in Bypass Permissions mode');
      expect(labels(bypass)).toEqual(['1:No, exit', '2:Yes, I accept']);
    }
  });

  it('reads "Switch model?" under its ▔ edge, below the transcript', async () => {
    for (const version of ['2.1.197', '2.1.330', '2.1.331']) {
      const dialog = await dialogIn(`claude-${version}-model.jsonl`);
      expect(dialog).toMatchObject({ title: 'Switch model?', numbered: true, cursor: 0 });
      expect(dialog!.options.map((o) => o.key)).toEqual(['1', '2']);
      expect(dialog!.options[0]!.label).toMatch(/^Yes, switch to Sonnet/);
      expect(dialog!.text.join('\n')).not.toContain('❯ hi'); // the transcript above is not the dialog
    }
  });

  it('reads claude\'s own permission dialog as a choice too (the dialog bridge leaves those to the hook)', async () => {
    const dialog = await dialogIn('claude-2.1.197-dialog.jsonl', { folder: 'screen-fixtures', mark: 'dialog' });
    expect(dialog?.numbered).toBe(true);
    expect(dialog!.options.length).toBeGreaterThanOrEqual(2);
  });

  it('finds no dialog at an idle prompt or while a turn runs (❯ rows of the transcript are not options)', async () => {
    expect(await dialogIn('claude-2.1.330-effort-no-dialog.jsonl')).toBeNull();
    expect(await dialogIn('claude-2.1.330-busy-no-dialog.jsonl')).toBeNull();
    expect(await dialogIn('claude-2.1.197-session.jsonl', { folder: 'screen-fixtures' })).toBeNull();
  });
});

describe('readDialog structure', () => {
  const rows = (text: string) => text.split('\n').map((line) => ({ text: line, strong: line }));
  const RULE = '─'.repeat(40);

  it('wants a rule above, two options or more, and few rows under them', () => {
    expect(readDialog(rows(` Pick one\n\n ❯ Alpha\n   Beta`))).toBeNull();
    expect(readDialog(rows(`${RULE}\n Pick one\n\n ❯ Alpha\n\n hint`))).toBeNull();
    expect(readDialog(rows(`${RULE}\n Pick one\n\n ❯ Alpha\n   Beta\n\n a\n b\n c\n d\n e`))).toBeNull();
    expect(readDialog(rows(`${RULE}\n Pick one\n\n ❯ Alpha\n   Beta\n\n Enter to confirm`))?.options).toEqual([
      { key: '1', label: 'Alpha' },
      { key: '2', label: 'Beta' },
    ]);
  });

  it('reads rows under an option, indented deeper, as its detail: never as another option', () => {
    const dialog = readDialog(rows(`${RULE}\n Question\n\n ❯ 1. Alpha, a label too long for\n      one row of the desk\n   2. Beta\n   3. Gamma\n      the third\n      choice\n\n Esc to cancel`));
    expect(dialog?.options).toEqual([
      { key: '1', label: 'Alpha, a label too long for', detail: 'one row of the desk' },
      { key: '2', label: 'Beta' },
      { key: '3', label: 'Gamma', detail: 'the third choice' },
    ]);
  });

  it('has the same signature wherever the marker is, and another when the text changes', () => {
    const a = readDialog(rows(`${RULE}\n Pick\n\n ❯ Alpha\n   Beta`))!;
    const b = readDialog(rows(`${RULE}\n Pick\n\n   Alpha\n ❯ Beta`))!;
    const c = readDialog(rows(`${RULE}\n Pick again\n\n ❯ Alpha\n   Beta`))!;
    expect(b.cursor).toBe(1);
    expect(a.signature).toBe(b.signature);
    expect(c.signature).not.toBe(a.signature);
  });

  it('is never read while the input box is on screen', () => {
    expect(readDialog(rows(`${RULE}\n Pick\n\n ❯ Alpha\n   Beta\n${RULE}\n❯ \n${RULE}`))).toBeNull();
  });
});

describe('keysFor', () => {
  const base = { title: 't', text: [], signature: '', identity: '', options: [1, 2, 3].map((n) => ({ key: String(n), label: `o${n}` })) };
  it('presses the digit of a numbered option', () => {
    expect(keysFor({ ...base, numbered: true, cursor: 0 }, '3')).toBe('3');
  });
  it('moves from the marker to an unnumbered option, then Enter', () => {
    expect(keysFor({ ...base, numbered: false, cursor: 2 }, '1')).toBe('\x1b[A\x1b[A\r');
    expect(keysFor({ ...base, numbered: false, cursor: 0 }, '2')).toBe('\x1b[B\r');
    expect(keysFor({ ...base, numbered: false, cursor: 1 }, '2')).toBe('\r');
  });
  it('presses nothing for an option the dialog does not have', () => {
    expect(keysFor({ ...base, numbered: true, cursor: 0 }, '7')).toBeNull();
  });
});
