// The guard on unattended work (issue 42, item 5) with real claude against the fake Messages API, a
// hub whose schedule clock the test moves, and `tether unattended` from a shell:
//  - with the day's cap at 1, the first scheduled prompt reaches claude and the second is stopped:
//    recorded on its schedule, never sent, never tried again;
//  - paused, a recurring schedule's run is stopped the same way; resumed, its next run goes.
// The usage-limit continue's stop is tested on both stores in hub/src/unattended/unattended.contract.ts.
import { describe, expect, it } from 'vitest';
import type { Schedule } from '@tether/shared';
import { lastUserText, text, type MessagesRequest } from '../fixtures/fake-anthropic/index.ts';
import { manualClock } from '../../hub/src/testing/manual-clock.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { emitAck, type HubHandle } from '../harness/hub.ts';
import { chatText, runTether } from '../harness/runner.ts';
import { DESK_READY, startStage } from '../harness/world.ts';

const defer = useCleanups();
const echo = (request: MessagesRequest) => text(`echo: ${lastUserText(request)}`);
const said = (requests: MessagesRequest[], prompt: string) => requests.filter((r) => lastUserText(r).includes(prompt)).length;
const stored = async (hub: Pick<HubHandle, 'store' | 'namespace'>, id: string) => (await hub.store.listSchedules({ namespace: hub.namespace })).find((s) => s.id === id)!;

describe('the unattended guard with real claude', () => {
  it('the day\'s cap stops a scheduled run, and the pause switch stops everything until resumed', async () => {
    const clock = manualClock();
    const stage = await startStage(defer, { script: Array.from({ length: 4 }, () => echo), hub: { schedules: { clock } } });
    const runner = stage.startRunner();
    const phone = await stage.startWatch(runner.sessionId);
    await runner.waitForScreen(DESK_READY);
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle' });
    const env = { TETHER_HOME: stage.tempDir('tether-cli-home-'), TETHER_HUB_URL: stage.hub.url, TETHER_TOKEN: stage.hub.token };
    const tether = async (...args: string[]) => {
      const run = await runTether(['unattended', ...args], env);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      return run.stdout;
    };
    const schedule = async (payload: Record<string, unknown>): Promise<Schedule> => {
      const ack = await emitAck<{ schedule: Schedule }>(phone.socket, 'schedule:create', { id: crypto.randomUUID(), target: { kind: 'session', sessionId: runner.sessionId }, ...payload });
      if (!ack.ok) throw new Error(ack.error);
      return ack.schedule;
    };

    // The line also says what the namespace's continue-at-reset default does (off unless chosen).
    const noDefault = "; sessions with no choice of their own are not continued at a usage limit's reset\n";
    expect(await tether('cap', '1')).toBe(`unattended work running; 0 of 1 runs today (UTC)${noDefault}`);
    const first = await schedule({ when: { kind: 'once', at: clock.now() + 20_000 }, prompt: 'within the cap' });
    const second = await schedule({ when: { kind: 'once', at: clock.now() + 40_000 }, prompt: 'over the cap' });
    await clock.advance(21_000);
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('echo: within the cap')), { what: 'the first run answered', timeoutMs: 45_000 });
    await clock.advance(20_000);
    expect(await stored(stage.hub, second.id)).toMatchObject({ nextRunAt: null, runs: 1, lastRun: { outcome: 'stopped', detail: expect.stringContaining('daily cap of 1 unattended run was reached') } });
    expect((await stored(stage.hub, first.id)).lastRun).toMatchObject({ outcome: 'sent' });
    expect(await tether()).toBe(`unattended work running; 1 of 1 runs today (UTC)${noDefault}`);

    await tether('cap', '20');
    expect(await tether('pause')).toContain('unattended work paused');
    const recurring = await schedule({ when: { kind: 'cron', expression: '*/5 * * * *', timeZone: 'UTC' }, prompt: 'every five minutes' });
    await clock.set(recurring.nextRunAt! + 1_000);
    const held = await stored(stage.hub, recurring.id);
    expect(held).toMatchObject({ runs: 1, lastRun: { outcome: 'stopped', detail: 'not run: everything unattended is paused' } });
    // Later ticks do not try the stopped run again.
    await clock.advance(60_000);
    expect(await stored(stage.hub, recurring.id)).toMatchObject({ runs: 1, nextRunAt: held.nextRunAt });
    expect(JSON.parse(await tether('resume', '--json'))).toMatchObject({ guard: { paused: false, dailyCap: 20, runsToday: 1 } });
    await clock.set(held.nextRunAt! + 1_000);
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('echo: every five minutes')), { what: 'the run after resume answered', timeoutMs: 45_000 });

    const requests = stage.fake.mainRequests();
    expect(said(requests, 'over the cap')).toBe(0);
    expect(said(requests, 'within the cap')).toBe(1);
    expect(said(requests, 'every five minutes')).toBe(1);
  }, 150_000);
});
