import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { reviewerChoices } from './start-review.tsx';

const session = { id: 's', machineId: 'm1', agent: 'claude' } as Session;
const caps = (displayName: string, readOnly?: boolean) => ({ displayName, ...(readOnly === undefined ? {} : { readOnly }) });

describe('reviewerChoices', () => {
  it("offers the machine's read-only-capable agents, another than the session's own first", () => {
    const machines = [{ id: 'm1', agents: ['claude', 'codex'] as Session['agent'][], capabilities: { claude: caps('Claude', true), codex: caps('Codex', true) } }];
    expect(reviewerChoices(session, machines)).toEqual([
      { agent: 'codex', name: 'Codex' },
      { agent: 'claude', name: 'Claude' },
    ]);
  });

  it('offers an agent only in the launch kinds it reviews in (Gemini: headless only)', () => {
    const machines = [{ id: 'm1', agents: ['claude', 'gemini'] as Session['agent'][], capabilities: { claude: caps('Claude', true), gemini: { ...caps('Gemini', true), readOnlyIn: ['headless' as const] } } }];
    expect(reviewerChoices(session, machines, 'headless').map((c) => c.agent)).toEqual(['gemini', 'claude']);
    expect(reviewerChoices(session, machines, 'pty').map((c) => c.agent)).toEqual(['claude']);
  });

  it('offers nothing its tether cannot start read-only, nor for an unknown machine', () => {
    const machines = [{ id: 'm1', agents: ['claude', 'codex'] as Session['agent'][], capabilities: { claude: caps('Claude'), codex: caps('Codex', false) } }];
    expect(reviewerChoices(session, machines)).toEqual([]);
    expect(reviewerChoices({ ...session, machineId: 'other' }, machines)).toEqual([]);
    expect(reviewerChoices(session, undefined)).toEqual([]);
  });
});
