import { describe, expect, it } from 'vitest';
import { filterViewerInput, stripTerminalReplies } from './query-filter.ts';

describe('terminal query replies', () => {
  it('strips every automatic reply an xterm sends', () => {
    const replies = ['\x1b[?1;2c', '\x1b[>0;276;0c', '\x1b[12;40R', '\x1bP>|xterm.js(6.0.0)\x1b\\', '\x1b[I', '\x1b[O',
      '\x1b]11;rgb:0000/0000/0000\x07', '\x1b[?2004;1$y'];
    for (const r of replies) expect(stripTerminalReplies(r)).toBe('');
    expect(stripTerminalReplies(`a${replies.join('')}b`)).toBe('ab');
  });

  it('keeps real keys, including arrows and Esc', () => {
    for (const key of ['\x1b', '\x1b[A', '\x1b[D', '\r', 'hello', '\x03', '\x1b[200~x\x1b[201~']) {
      expect(stripTerminalReplies(key)).toBe(key);
    }
  });

  it('drops a non-owner reply, passes the owner, and lets a typing viewer take control', () => {
    expect(filterViewerInput({ data: '\x1b[?1;2c', fromOwner: false })).toEqual({ kind: 'drop' });
    expect(filterViewerInput({ data: '\x1b[?1;2c', fromOwner: true })).toEqual({
      kind: 'write', data: '\x1b[?1;2c', takesControl: false });
    expect(filterViewerInput({ data: '\x1b[Ix', fromOwner: false })).toEqual({ kind: 'write', data: 'x', takesControl: true });
  });
});
