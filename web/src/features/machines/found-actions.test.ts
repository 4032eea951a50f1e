import { describe, expect, it } from 'vitest';
import type { Machine } from '@tether/shared';
import { adoptFailure, adoptedTarget, foundOffer, offlineNote } from './found-actions.ts';

const forks = { fork: { supported: true, reason: null } };
const noFork = { fork: { supported: false, reason: 'its CLI has no fork' } };
function machine(o: { caps?: Record<string, unknown> } = {}): Pick<Machine, 'capabilities'> {
  return { capabilities: (o.caps ?? { claude: { displayName: 'Claude', ...forks } }) as Machine['capabilities'] };
}
const labels = (offer: ReturnType<typeof foundOffer>) => offer.actions.map((a) => `${a.label}:${a.kind}:${a.launchKind}`);

describe("what a found conversation offers", () => {
  it('a past one: Adopt (chat only), Adopt in terminal, and Fork where the agent forks', () => {
    const offer = foundOffer({ agent: 'claude', live: false }, machine());
    expect(offer).toMatchObject({ state: 'Past conversation', live: false, notes: [] });
    expect(labels(offer)).toEqual(['Adopt:adopt:headless', 'Adopt in terminal:adopt:pty', 'Fork:fork:headless']);
  });

  it('no Fork where the agent cannot, with its own reason; an older tether says so', () => {
    const offer = foundOffer({ agent: 'codex', live: false }, machine({ caps: { codex: { displayName: 'Codex', ...noFork } } }));
    expect(labels(offer)).toEqual(['Adopt:adopt:headless', 'Adopt in terminal:adopt:pty']);
    expect(offer.notes).toEqual(['No fork: its CLI has no fork']);
    expect(foundOffer({ agent: 'gemini', live: false }, machine({ caps: {} })).notes[0]).toMatch(/^No fork: tether on this machine is older than forks/);
  });

  it("a background session the agent runs: Adopt attaches live, in a terminal", () => {
    const offer = foundOffer({ agent: 'claude', live: true, backgroundId: 'f35b2b97' }, machine());
    expect(offer).toMatchObject({ state: "Running in Claude's pool", live: true });
    expect(labels(offer)).toEqual(['Adopt:adopt:pty', 'Fork:fork:headless']);
  });

  it("a live one in someone's terminal: no Adopt, says why, offers only a fork", () => {
    const offer = foundOffer({ agent: 'claude', live: true }, machine());
    expect(labels(offer)).toEqual(['Fork:fork:headless']);
    expect(offer.notes[0]).toBe("A Claude running in someone's terminal cannot be shared while it runs: continue it here once it has ended.");
    expect(foundOffer({ agent: 'codex', live: true }, machine({ caps: { codex: { displayName: 'Codex', ...noFork } } })).actions).toEqual([]);
  });

  it('the daemon offline: says what to start, where', () => {
    expect(offlineNote('dev-box')).toBe('Daemon offline: start tether daemon on dev-box to adopt or fork.');
  });

  it('opens an adopted terminal session on its terminal, a headless one on its chat; refusals in words', () => {
    expect(adoptedTarget({ id: 's1', launchKind: 'pty' })).toEqual({ to: '/sessions/$sessionId/terminal', params: { sessionId: 's1' } });
    expect(adoptedTarget({ id: 's1', launchKind: 'headless' }).to).toBe('/sessions/$sessionId');
    expect(adoptFailure({ reason: 'machine_offline', message: 'machine "dev-box" is offline', machineName: 'dev-box' })).toBe('dev-box is offline: start tether daemon on dev-box.');
    expect(adoptFailure({ reason: 'session_live', message: 'someone else is adopting this conversation', machineName: 'dev-box' })).toBe('Someone else is adopting this conversation');
  });
});
