// ender.test.ts: the turn-aware end (interrupt the turn in flight, then close the input on its end), and
// whether an end began.
import { describe, expect, it } from 'vitest';
import { createEnder, createTurnEnder } from './ender.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the turn-aware end of a headless agent (claude -p, codex app-server)', () => {
  it('an idle agent has its input closed at once; a busy one is interrupted and closed when its turn ends', async () => {
    const calls: string[] = [];
    const make = (busy: boolean) =>
      createTurnEnder({
        busy: () => busy,
        interrupt: () => calls.push('interrupt'),
        closeInput: () => calls.push('close'),
        exited: new Promise(() => {}),
        force: () => calls.push('force'),
        log: () => {},
      });
    const idle = make(false);
    idle.end();
    await sleep(5);
    expect(calls).toEqual(['close']);
    expect(idle.turnEnded()).toBe(false);

    calls.splice(0);
    const busy = make(true);
    expect(busy.turnEnded()).toBe(false);
    busy.end();
    await sleep(5);
    expect(calls).toEqual(['interrupt']);
    expect(busy.turnEnded()).toBe(true);
    expect(calls).toEqual(['interrupt', 'close']);
  });
});

describe('an end that began', () => {
  it('says so from its request on, so the agent\'s exit (a signal death reads as code 1) is the end\'s doing', async () => {
    const presses: number[] = [];
    let exit: () => void = () => {};
    const exited = new Promise<void>((resolve) => (exit = resolve));
    const ender = createEnder({ step: (i) => presses.push(i), at: [0], graceMs: 50, exited, force: () => exit(), log: () => {} });
    expect(ender.began()).toBe(false);
    ender.end();
    expect(ender.began()).toBe(true);
    await exited;
    expect(presses).toEqual([0]);
    expect(ender.began()).toBe(true);
  });
});
