import { describe, expect, it } from 'vitest';
import { geminiAgent, terminalColourLevel } from './agent.ts';

describe('Gemini\'s environment', () => {
  it('empties what would make Gemini headless in tether\'s terminal (CI, GITHUB_ACTIONS), keeps the rest', () => {
    const env = geminiAgent.env({ env: { CI: 'true', GITHUB_ACTIONS: 'true', HOME: '/home/dev', GEMINI_API_KEY: 'k' } });
    expect(env.CI).toBe('');
    expect(env.GITHUB_ACTIONS).toBe('');
    expect(env).toMatchObject({ HOME: '/home/dev', GEMINI_API_KEY: 'k', TERM: 'xterm-256color' });
  });

  it('gives back the colour an emptied CI takes away (its terminal\'s level), unless the user chose one', () => {
    expect(geminiAgent.env({ env: { CI: 'true', TERM: 'xterm-256color' } }).FORCE_COLOR).toBe('2');
    expect(geminiAgent.env({ env: { CI: 'true', TERM: 'xterm', COLORTERM: 'truecolor' } }).FORCE_COLOR).toBe('3');
    expect(geminiAgent.env({ env: { CI: 'true', TERM: 'xterm', NO_COLOR: '1' } }).FORCE_COLOR).toBeUndefined();
    expect(geminiAgent.env({ env: { CI: 'true', FORCE_COLOR: '0' } }).FORCE_COLOR).toBe('0');
    expect(geminiAgent.env({ env: { TERM: 'xterm-256color' } }).FORCE_COLOR).toBeUndefined();
  });

  it('reads a terminal\'s colour level by the rule colour libraries use', () => {
    expect(terminalColourLevel({ TERM: 'dumb' })).toBe(0);
    expect(terminalColourLevel({ TERM: 'linux' })).toBe(1);
    expect(terminalColourLevel({ TERM: 'screen-256color' })).toBe(2);
    expect(terminalColourLevel({ COLORTERM: '24bit' })).toBe(3);
  });
});
