import { describe, expect, it } from 'vitest';
import { geminiAgent } from './agent.ts';

describe('Gemini\'s environment', () => {
  it('empties what would make Gemini headless in tether\'s terminal (CI, GITHUB_ACTIONS), keeps the rest', () => {
    const env = geminiAgent.env({ env: { CI: 'true', GITHUB_ACTIONS: 'true', HOME: '/home/dev', GEMINI_API_KEY: 'k' } });
    expect(env.CI).toBe('');
    expect(env.GITHUB_ACTIONS).toBe('');
    expect(env).toMatchObject({ HOME: '/home/dev', GEMINI_API_KEY: 'k', TERM: 'xterm-256color' });
  });
});
