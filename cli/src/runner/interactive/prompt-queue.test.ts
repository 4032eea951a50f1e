import { describe, expect, it } from 'vitest';
import { createPromptQueue, SEEN_PROMPTS_KEPT } from './prompt-queue.ts';
import type { PromptState } from '../../screen/prompt-state.ts';

const ID1 = '00000000-0000-4000-8000-000000000001';
const ID2 = '00000000-0000-4000-8000-000000000002';
const ID3 = '00000000-0000-4000-8000-000000000003';

/** A fake TUI: pasting fills the box, Enter submits (busy), the test ends turns. */
function fakeClaude() {
  const world = { screen: { kind: 'ready', inputEmpty: true } as PromptState, idle: true, box: '', writes: [] as string[] };
  const statuses: Array<[string, string]> = [];
  const queue = createPromptQueue({
    screen: () => world.screen,
    turnIdle: () => world.idle,
    pasteSettleMs: 5,
    write: (data) => {
      world.writes.push(data);
      if (data.startsWith('\x1b[200~')) {
        world.box += data.slice(6, -6);
        world.screen = { kind: 'ready', inputEmpty: false };
      } else if (data === '\r') {
        world.box = '';
        world.screen = { kind: 'busy' };
        world.idle = false;
      }
    },
    report: ({ promptId, status }) => statuses.push([promptId, status]),
  });
  const endTurn = () => {
    world.screen = { kind: 'ready', inputEmpty: true };
    world.idle = true;
    queue.turnEnded();
  };
  return { world, statuses, queue, endTurn };
}

describe('prompt queue', () => {
  it('types at an idle empty prompt as one paste then Enter, confirmed by the transcript', async () => {
    const { world, statuses, queue } = fakeClaude();
    queue.enqueue({ promptId: ID1, text: 'line one\nline two\nline three' });
    await expect.poll(() => world.writes.length).toBe(2);
    expect(world.writes).toEqual(['\x1b[200~line one\nline two\nline three\x1b[201~', '\r']);
    expect(queue.matchPrompt('line one\nline two\nline three')).toBe(ID1);
    expect(statuses).toEqual([
      [ID1, 'typing'],
      [ID1, 'delivered'],
    ]);
  });

  it('never types into a busy turn, however long it is quiet, and keeps order', async () => {
    const { world, statuses, queue, endTurn } = fakeClaude();
    world.screen = { kind: 'busy' };
    world.idle = false;
    queue.enqueue({ promptId: ID1, text: 'first' });
    queue.enqueue({ promptId: ID2, text: 'second' });
    await new Promise((r) => setTimeout(r, 400));
    expect(world.writes).toEqual([]);
    endTurn();
    await expect.poll(() => world.writes.length).toBe(2);
    // The second waits for the first's transcript line AND the next idle turn.
    expect(queue.matchPrompt('first')).toBe(ID1);
    await new Promise((r) => setTimeout(r, 200));
    expect(world.writes.length).toBe(2);
    endTurn();
    await expect.poll(() => world.writes.length).toBe(4);
    expect(world.writes[2]).toContain('second');
    expect(queue.matchPrompt('second')).toBe(ID2);
    expect(statuses.map((s) => s.join(':'))).toEqual([`${ID1}:typing`, `${ID1}:delivered`, `${ID2}:typing`, `${ID2}:delivered`]);
  });

  it('waits for the desk when the box has text, then types once it is empty', async () => {
    const { world, statuses, queue } = fakeClaude();
    world.screen = { kind: 'ready', inputEmpty: false };
    queue.enqueue({ promptId: ID1, text: 'hello' });
    await expect.poll(() => statuses).toEqual([[ID1, 'waiting_for_desk']]);
    expect(world.writes).toEqual([]);
    world.screen = { kind: 'ready', inputEmpty: true };
    queue.poke();
    await expect.poll(() => world.writes.length).toBe(2);
  });

  it('ignores a prompt id it has seen and does not retype after Enter', async () => {
    const { world, queue } = fakeClaude();
    queue.enqueue({ promptId: ID1, text: 'once' });
    queue.enqueue({ promptId: ID1, text: 'once' });
    await expect.poll(() => world.writes.length).toBe(2);
    world.screen = { kind: 'ready', inputEmpty: true };
    world.idle = true;
    await new Promise((r) => setTimeout(r, 300));
    expect(world.writes.length).toBe(2);
  });

  it('remembers only the newest SEEN_PROMPTS_KEPT prompt ids: a long session holds no id per turn forever', () => {
    const { world, queue } = fakeClaude();
    world.idle = false; // a turn runs: everything stays queued
    world.screen = { kind: 'busy' };
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    for (let n = 0; n <= SEEN_PROMPTS_KEPT; n++) queue.enqueue({ promptId: id(n), text: `p${n}` });
    expect(queue.pending()).toBe(SEEN_PROMPTS_KEPT + 1);
    // The newest ids are still known (a re-delivery is ignored)...
    queue.enqueue({ promptId: id(SEEN_PROMPTS_KEPT), text: 'again' });
    queue.enqueue({ promptId: id(1), text: 'again' });
    expect(queue.pending()).toBe(SEEN_PROMPTS_KEPT + 1);
    // ...the oldest one was let go.
    queue.enqueue({ promptId: id(0), text: 'again' });
    expect(queue.pending()).toBe(SEEN_PROMPTS_KEPT + 2);
    queue.stop();
  });

  it('abort returns only the prompt in flight and drops those queued behind it', async () => {
    const { world, statuses, queue } = fakeClaude();
    queue.enqueue({ promptId: ID1, text: 'long one' });
    await expect.poll(() => world.writes.length).toBe(2);
    expect(queue.matchPrompt('long one')).toBe(ID1);
    queue.enqueue({ promptId: ID2, text: 'behind 1' });
    queue.enqueue({ promptId: ID3, text: 'behind 2' });
    queue.abort();
    expect(world.writes.at(-1)).toBe('\x1b');
    expect(statuses.slice(2)).toEqual([
      [ID1, 'returned'],
      [ID2, 'dropped'],
      [ID3, 'dropped'],
    ]);
  });

  it('does not match desk text to a prompt that was never typed', () => {
    const { world, queue } = fakeClaude();
    world.idle = false;
    world.screen = { kind: 'busy' };
    queue.enqueue({ promptId: ID1, text: 'same words' });
    expect(queue.matchPrompt('same words')).toBeNull();
    queue.stop();
  });
});

describe('prompt queue: an action of the agent’s own keys', () => {
  it('runs only at an idle empty prompt, in turn, and holds the prompts behind it until it settles', async () => {
    const { world, queue, endTurn } = fakeClaude();
    world.screen = { kind: 'busy' };
    world.idle = false;
    let finish!: () => void;
    const ran: string[] = [];
    queue.enqueueAction({
      run: () => {
        ran.push('action');
        return new Promise<void>((resolve) => (finish = resolve));
      },
    });
    queue.enqueue({ promptId: ID1, text: 'after the switch' });
    await new Promise((r) => setTimeout(r, 200));
    expect(ran).toEqual([]);
    endTurn();
    await expect.poll(() => ran).toEqual(['action']);
    queue.poke();
    await new Promise((r) => setTimeout(r, 200));
    expect(world.writes).toEqual([]);
    finish();
    await expect.poll(() => world.writes).toEqual(['\x1b[200~after the switch\x1b[201~', '\r']);
  });

  it('an action that throws still lets the queue go on; a closed queue runs none', async () => {
    const { world, queue } = fakeClaude();
    queue.enqueueAction({ run: async () => Promise.reject(new Error('picker gone')) });
    queue.enqueue({ promptId: ID1, text: 'next' });
    await expect.poll(() => world.writes.length).toBe(2);
    queue.stop();
    let ran = false;
    queue.enqueueAction({ run: async () => void (ran = true) });
    await new Promise((r) => setTimeout(r, 100));
    expect(ran).toBe(false);
  });
});

describe('prompt queue: images attached by path', () => {
  it('pastes each path alone, then the text, then Enter', async () => {
    const { world, queue } = fakeClaude();
    queue.enqueue({ promptId: ID1, text: 'what is this?', attach: ['/tmp/a/1-photo.png', '/tmp/a/2-shot.png'] });
    await expect.poll(() => world.writes.length).toBe(4);
    expect(world.writes).toEqual(['\x1b[200~/tmp/a/1-photo.png\x1b[201~', '\x1b[200~/tmp/a/2-shot.png\x1b[201~', '\x1b[200~what is this?\x1b[201~', '\r']);
    expect(queue.matchPrompt('what is this?')).toBe(ID1);
  });

  it('a photo with no words: only its path, then Enter', async () => {
    const { world, queue } = fakeClaude();
    queue.enqueue({ promptId: ID1, text: '', attach: ['/tmp/a/1-photo.png'] });
    await expect.poll(() => world.writes.length).toBe(2);
    expect(world.writes).toEqual(['\x1b[200~/tmp/a/1-photo.png\x1b[201~', '\r']);
  });
});

describe('prompt queue: an Enter the agent dropped', () => {
  /** A TUI whose box takes the paste; an Enter leaves `afterEnter` on the screen (by default the
   *  box as it was: the Enter dropped). */
  function pasteTaker(options: { turnIdle: () => boolean; afterEnter?: PromptState }) {
    const writes: string[] = [];
    let screen: PromptState = { kind: 'ready', inputEmpty: true };
    const queue = createPromptQueue({
      screen: () => screen,
      turnIdle: options.turnIdle,
      pasteSettleMs: 5,
      write: (data) => {
        writes.push(data);
        if (data.startsWith('\x1b[200~')) screen = { kind: 'ready', inputEmpty: false };
        else if (options.afterEnter) screen = options.afterEnter;
      },
      report: () => {},
    });
    return { writes, queue };
  }

  it('presses Enter again (never the text) while the turn has not started and the box still holds it; at most three Enters', async () => {
    const { writes, queue } = pasteTaker({ turnIdle: () => true });
    queue.enqueue({ promptId: ID1, text: 'dropped enter' });
    await expect.poll(() => writes.length).toBe(2);
    await expect.poll(() => writes.length, { timeout: 8_000 }).toBe(4);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(writes).toEqual(['\x1b[200~dropped enter\x1b[201~', '\r', '\r', '\r']);
    queue.stop();
  }, 15_000);

  it('presses nothing more once the agent took it (the box empty) or its turn started', async () => {
    let idle = true;
    // The Enter taken (the box empty), but its turn not seen yet.
    const { writes, queue } = pasteTaker({ turnIdle: () => idle, afterEnter: { kind: 'ready', inputEmpty: true } });
    queue.enqueue({ promptId: ID1, text: 'taken' });
    await expect.poll(() => writes.length).toBe(2);
    await new Promise((r) => setTimeout(r, 2_600));
    idle = false;
    await new Promise((r) => setTimeout(r, 2_200));
    expect(writes).toEqual(['\x1b[200~taken\x1b[201~', '\r']);
    queue.stop();
  }, 15_000);
});
