// typeFreeText's last step: Enter only a settle after the screen showed the words, and only if the
// question still holds them then (Gemini took an Enter written the moment its field showed the words
// as a newline, 30 ms after the paste by its clock: the answer sat in its field, never submitted).
import { describe, expect, it } from 'vitest';
import { typeFreeText } from './free-text.ts';
import type { ScreenDialog } from './read-dialog.ts';

function field(typed: string, headline = 'Which database?'): ScreenDialog {
  const options = [{ key: '1', label: 'SQLite' }, { key: '2', label: typed || 'Enter a custom value' }];
  return {
    title: 'Answer Questions',
    text: [headline],
    options,
    numbered: true,
    cursor: 1,
    signature: JSON.stringify([headline, typed]),
    identity: JSON.stringify([headline]),
    headline,
    freeText: { key: '2', focused: true, typed },
  };
}

/** A screen that shows a paste at once and records when each key was written. */
function screen() {
  let now = field('');
  const keys: { key: string; at: number }[] = [];
  return {
    keys,
    set: (dialog: ScreenDialog) => void (now = dialog),
    read: async () => now,
    write: (key: string) => {
      keys.push({ key, at: performance.now() });
      if (key.startsWith('\x1b[200~')) now = field(key.slice(6, -6));
    },
  };
}

describe('a typed answer’s Enter', () => {
  it('waits enterAfterMs after the screen showed the words', async () => {
    const s = screen();
    const result = await typeFreeText({ was: field(''), text: 'postgres please', choice: '2', read: s.read, write: s.write, enterAfterMs: 120 });
    expect(result).toEqual({ ok: true });
    expect(s.keys.map((k) => k.key)).toEqual(['\x1b[200~postgres please\x1b[201~', '\r']);
    expect(s.keys[1]!.at - s.keys[0]!.at).toBeGreaterThanOrEqual(119);
  });

  it('is not pressed when the question changed during that wait', async () => {
    const s = screen();
    const typing = typeFreeText({ was: field(''), text: 'postgres', choice: '2', read: s.read, write: s.write, enterAfterMs: 100 });
    setTimeout(() => s.set(field('', 'Which cache?')), 30);
    expect(await typing).toEqual({ ok: false, typed: true, reason: expect.stringMatching(/changed after the answer was typed; Enter was not pressed/) });
    expect(s.keys.map((k) => k.key)).toEqual(['\x1b[200~postgres\x1b[201~']);
  });
});
