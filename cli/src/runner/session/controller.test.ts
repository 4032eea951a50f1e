import { describe, expect, it } from 'vitest';
import { createControllerTracker, isDeskKeystroke } from './controller.ts';

describe('isDeskKeystroke', () => {
  it('counts keys, pastes, Enter and arrows as typing', () => {
    for (const data of ['a', 'hello', '\r', '\x1b', '\x1b[A', '\x03', '\x1b[200~two\nlines\x1b[201~', '\x1b[13;2u']) {
      expect(isDeskKeystroke(data), JSON.stringify(data)).toBe(true);
    }
  });
  it('ignores what a terminal sends by itself', () => {
    for (const data of [
      '\x1b[I',
      '\x1b[O',
      '\x1b[12;40R',
      '\x1b[?62;22c',
      '\x1b[>1;10;0c',
      '\x1b]11;rgb:0000/0000/0000\x1b\\',
      '\x1b]10;rgb:ffff/ffff/ffff\x07',
      '\x1bP>|xterm(390)\x1b\\',
      '\x1b[?2004;1$y',
      '\x1b[?0u',
      '\x1b[?997;1n',
      '\x1b[0n',
      '\x1b[<35;10;5M',
      '\x1b[I\x1b[12;40R',
    ]) {
      expect(isDeskKeystroke(data), JSON.stringify(data)).toBe(false);
    }
  });
  it('finds a key mixed with replies', () => {
    expect(isDeskKeystroke('\x1b[Ix')).toBe(true);
  });
});

describe('createControllerTracker', () => {
  it('reports each change once', () => {
    const seen: string[] = [];
    const t = createControllerTracker({ report: (c) => seen.push(c) });
    t.set('desk');
    t.set('desk');
    t.set('remote');
    t.set('remote');
    t.set('desk');
    expect(seen).toEqual(['desk', 'remote', 'desk']);
  });
});
