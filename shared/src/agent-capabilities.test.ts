// agent-capabilities.test.ts: the record a runner states is bounded and strict (it comes from another
// process), and the helpers read it the way the hub and the web decide from it.
import { describe, expect, it } from 'vitest';
import { AgentCapabilitiesSchema, canSwitch, effortFor, resumeAtDesk, type AgentCapabilities } from './index.ts';

const CODEX_LIKE: AgentCapabilities = {
  displayName: 'Codex',
  description: 'OpenAI · the codex CLI',
  models: { offered: [], typed: true, example: 'gpt-5.5', switchableIn: ['headless'] },
  effort: { levels: ['low', 'medium', 'high', 'xhigh'], maps: { max: 'xhigh' }, switchableIn: ['headless'] },
  modes: { values: [], switchableIn: [] },
  resumeCommand: 'tether codex resume {id}',
  relays: { requests: ['permission', 'dialog'], editedInput: false, sessionRules: false },
};

describe('agent capabilities', () => {
  it('takes a well-formed record as it is', () => {
    expect(AgentCapabilitiesSchema.parse(CODEX_LIKE)).toEqual(CODEX_LIKE);
  });

  it('refuses what is over a bound, unknown, or a resume command that names no {id}', () => {
    const bad: unknown[] = [
      { ...CODEX_LIKE, displayName: 'x'.repeat(41) },
      { ...CODEX_LIKE, models: { ...CODEX_LIKE.models, offered: Array.from({ length: 21 }, (_, i) => `m${i}`) } },
      { ...CODEX_LIKE, models: { ...CODEX_LIKE.models, offered: ['x'.repeat(101)] } },
      { ...CODEX_LIKE, effort: { ...CODEX_LIKE.effort, levels: ['ludicrous'] } },
      { ...CODEX_LIKE, modes: { values: ['yolo'], switchableIn: [] } },
      { ...CODEX_LIKE, modes: { values: [], switchableIn: ['pty', 'headless', 'pty'] } },
      { ...CODEX_LIKE, resumeCommand: 'codex resume' },
      { ...CODEX_LIKE, resumeCommand: `{id}${'x'.repeat(200)}` },
      { ...CODEX_LIKE, relays: { ...CODEX_LIKE.relays, requests: ['telepathy'] } },
      { ...CODEX_LIKE, extra: true },
      { ...CODEX_LIKE, models: { ...CODEX_LIKE.models, extra: true } },
    ];
    for (const record of bad) expect(AgentCapabilitiesSchema.safeParse(record).success).toBe(false);
  });

  it('switches only what it has, in the launch kinds it names; no record switches nothing', () => {
    expect(canSwitch(CODEX_LIKE, 'models', 'headless')).toBe(true);
    expect(canSwitch(CODEX_LIKE, 'models', 'pty')).toBe(false);
    expect(canSwitch(CODEX_LIKE, 'modes', 'headless')).toBe(false);
    expect(canSwitch({ ...CODEX_LIKE, effort: { ...CODEX_LIKE.effort, levels: [] } }, 'effort', 'headless')).toBe(false);
    for (const what of ['models', 'effort', 'modes'] as const) expect(canSwitch(null, what, 'pty') || canSwitch(undefined, what, 'headless')).toBe(false);
  });

  it('asks a level it lacks as the one it maps to, and names the desk\'s resume command', () => {
    expect(effortFor(CODEX_LIKE, 'high')).toBe('high');
    expect(effortFor(CODEX_LIKE, 'max')).toBe('xhigh');
    expect(effortFor({ ...CODEX_LIKE, effort: { ...CODEX_LIKE.effort, maps: {} } }, 'max')).toBeNull();
    expect(resumeAtDesk(CODEX_LIKE, 'thread-1')).toBe('tether codex resume thread-1');
  });
});
