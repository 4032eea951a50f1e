// end-claude.test.ts: the ender's schedule (steps until claude exits, the force only after the
// grace). The headless order (interrupt, then close the input) is agents/ender.test.ts.
import { describe, expect, it } from 'vitest';
import { createClaudeEnder } from './end-claude.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createClaudeEnder', () => {
  it('steps until claude exits and never forces it; a second end is a no-op', async () => {
    let exit = () => {};
    const exited = new Promise<void>((r) => (exit = r));
    const steps: number[] = [];
    let forced = 0;
    const ender = createClaudeEnder({
      step: (i) => {
        steps.push(i);
        if (i === 1) exit();
      },
      at: [0, 10, 20, 30, 40],
      graceMs: 100,
      exited,
      force: () => (forced += 1),
      log: () => {},
    });
    ender.end();
    ender.end();
    await sleep(150);
    expect(steps).toEqual([0, 1]);
    expect(forced).toBe(0);
  });

  it('forces claude once after the grace when the clean path did not end it', async () => {
    let forced = 0;
    const steps: number[] = [];
    const ender = createClaudeEnder({ step: (i) => steps.push(i), at: [0, 5, 10], graceMs: 40, exited: new Promise(() => {}), force: () => (forced += 1), log: () => {} });
    ender.end();
    await sleep(80);
    expect(steps).toEqual([0, 1, 2]);
    expect(forced).toBe(1);
  });
});
