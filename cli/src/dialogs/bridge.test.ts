// The bridge's state machine with a recording hub link and a scripted screen: stable before raised,
// flapping redraws raise nothing, withdrawn when the dialog leaves or is replaced, covered dialogs
// never raised, and an answer presses keys only while that dialog is still on screen.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HubLink } from '../hub-link/link.ts';
import { createDialogBridge, type DialogBridge } from './bridge.ts';
import { createRequestRegistry } from '../runner/requests/registry.ts';
import type { ScreenDialog } from './read-dialog.ts';

function dialog(title: string, cursor = 0, numbered = false): ScreenDialog {
  const options = [
    { key: '1', label: 'No, exit' },
    { key: '2', label: 'Yes, I accept' },
  ];
  return { title, text: [title, '', '  No, exit', '  Yes, I accept'], options, numbered, cursor, signature: JSON.stringify([title, options]), identity: JSON.stringify([title, options]) };
}

type Sent = { event: string; payload: Record<string, unknown> };

function setup(o: { covered?: (dialog: ScreenDialog) => boolean; closing?: () => boolean; linkUp?: () => boolean; deskActive?: () => boolean } = {}) {
  const sent: Sent[] = [];
  const keys: string[] = [];
  const waiting: boolean[] = [];
  let screen: ScreenDialog | null = null;
  const link = {
    request: async (event: string, payload: Record<string, unknown>) => {
      sent.push({ event, payload });
      return { ok: true };
    },
  } as unknown as HubLink;
  const registry = createRequestRegistry({ sessionId: () => 'session-1', link: () => (o.linkUp?.() ?? true ? link : null) });
  // The session waits while a request the hub took is open: the registry says so, not the bridge.
  registry.subscribe((change) => waiting.push(change.kind === 'opened'));
  const bridge: DialogBridge = createDialogBridge({
    sessionId: () => 'session-1',
    requests: registry,
    read: async () => screen,
    write: (k) => keys.push(k),
    covered: o.covered ?? (() => false),
    ...(o.closing ? { closing: o.closing } : {}),
    ...(o.deskActive ? { deskActive: o.deskActive } : {}),
    log: () => {},
    freeTextMaxChars: 600,
    settleMs: 20,
    retryMs: 20,
  });
  /** The screen now shows `next`, and the runner's screen loop reports it. */
  const show = (next: ScreenDialog | null) => {
    screen = next;
    bridge.seen(next);
  };
  const requests = () => sent.filter((s) => s.event === 'approval:request');
  const withdrawals = () => sent.filter((s) => s.event === 'approval:withdraw');
  const deskAnswers = () => sent.filter((s) => s.event === 'approval:desk-answer');
  return { bridge, registry, sent, keys, waiting, show, requests, withdrawals, deskAnswers, setScreen: (next: ScreenDialog | null) => (screen = next) };
}

let bridges: DialogBridge[] = [];
afterEach(() => {
  for (const bridge of bridges) bridge.stop();
  bridges = [];
});

describe('dialog bridge', () => {
  it('raises a dialog once it is stable, with its title, text and options', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(dialog('WARNING: bypass'));
    expect(t.requests()).toHaveLength(0);
    await vi.waitFor(() => expect(t.waiting).toEqual([true]));
    expect(t.requests()[0]!.payload).toMatchObject({
      sessionId: 'session-1',
      kind: 'dialog',
      toolName: 'Dialog',
      toolInput: { title: 'WARNING: bypass', text: ['WARNING: bypass', '', '  No, exit', '  Yes, I accept'], options: [{ key: '1', label: 'No, exit' }, { key: '2', label: 'Yes, I accept' }] },
    });
    expect(t.waiting).toEqual([true]);
    // Redraws of the same dialog (the marker moving at the desk) raise nothing more.
    t.show(dialog('WARNING: bypass', 1));
    t.show(dialog('WARNING: bypass', 0));
    await new Promise((r) => setTimeout(r, 60));
    expect(t.requests()).toHaveLength(1);
  });

  it('says a dialog came up right after a key at the desk (someone is there: the hub sends no push)', async () => {
    let desk = true;
    const t = setup({ deskActive: () => desk });
    bridges.push(t.bridge);
    t.show(dialog('Select model'));
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
    expect(t.requests()[0]!.payload.toolInput).toMatchObject({ title: 'Select model', openedAtDesk: true });
    t.show(null);
    desk = false;
    t.show(dialog('Switch model?'));
    await vi.waitFor(() => expect(t.requests()).toHaveLength(2));
    expect(t.requests()[1]!.payload.toolInput).not.toHaveProperty('openedAtDesk');
  });

  it('raises nothing for a dialog that flaps away before it is stable', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(dialog('Loading…'));
    t.setScreen(null); // gone by the confirming read, and the screen loop has not said so yet
    await new Promise((r) => setTimeout(r, 60));
    t.show(null);
    expect(t.requests()).toHaveLength(0);
    expect(t.waiting).toEqual([]);
  });

  it('reports a desk answer when the dialog leaves the screen (answered in claude itself)', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(dialog('Switch model?'));
    await vi.waitFor(() => expect(t.waiting).toEqual([true]));
    t.show(null);
    await vi.waitFor(() => expect(t.deskAnswers()).toHaveLength(1));
    expect(t.deskAnswers()[0]!.payload).toMatchObject({ sessionId: 'session-1', requestId: t.requests()[0]!.payload.id, answer: null });
    expect(t.withdrawals()).toHaveLength(0);
    expect(t.waiting).toEqual([true, false]);
  });

  it('withdraws the old request and raises a new one when another dialog replaces it in place', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(dialog('New MCP server found: one'));
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
    t.show(dialog('New MCP server found: two'));
    await vi.waitFor(() => expect(t.requests()).toHaveLength(2));
    expect(t.withdrawals()).toHaveLength(1);
    expect(t.withdrawals()[0]!.payload.requestId).toBe(t.requests()[0]!.payload.id);
    expect((t.requests()[1]!.payload.toolInput as { title: string }).title).toBe('New MCP server found: two');
  });

  it('never raises a dialog a hook request covers, even after that request was answered', async () => {
    let covered = true;
    const t = setup({ covered: () => covered });
    bridges.push(t.bridge);
    t.show(dialog('Do you want to run ls?'));
    covered = false; // the phone answered the hook; claude still shows its dialog a moment
    t.show(dialog('Do you want to run ls?'));
    await new Promise((r) => setTimeout(r, 60));
    expect(t.requests()).toHaveLength(0);
    t.show(null);
    t.show(dialog('Switch model?'));
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
  });

  it('never raises a dialog the runner answers for an answered request, though first drawn after it closed', async () => {
    // claude under load drew "Exit plan mode?" only after the phone approved the plan, and kept it up
    // past the closing moment while the runner pressed its "Yes" (plan-dialog.ts): the phone had answered.
    let confirming = true;
    const t = setup({ covered: (d) => confirming && d.title === 'Exit plan mode?' });
    bridges.push(t.bridge);
    t.show(dialog('Exit plan mode?'));
    await new Promise((r) => setTimeout(r, 60));
    t.show(dialog('Exit plan mode?'));
    confirming = false;
    t.show(dialog('Exit plan mode?'));
    await new Promise((r) => setTimeout(r, 60));
    expect(t.requests()).toHaveLength(0);
    t.show(dialog('Switch model?')); // another dialog is still asked
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
  });

  it('asks a dialog first drawn just after a request closed once that moment passes, with no redraw', async () => {
    let closing = true;
    const t = setup({ closing: () => closing });
    bridges.push(t.bridge);
    t.show(dialog('Switch model?')); // claude's new question, 1.4 s after the phone allowed a call
    await new Promise((r) => setTimeout(r, 300));
    expect(t.requests()).toHaveLength(0);
    closing = false; // the screen does not change again: the bridge looks by itself
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
    expect((t.requests()[0]!.payload.toolInput as { title: string }).title).toBe('Switch model?');
  });

  it('asks nothing for a closed request\'s dialog that leaves within that moment', async () => {
    let closing = true;
    const t = setup({ closing: () => closing });
    bridges.push(t.bridge);
    t.show(dialog('Do you want to run ls?'));
    t.setScreen(null); // gone before the bridge looks again
    closing = false;
    await new Promise((r) => setTimeout(r, 400));
    expect(t.requests()).toHaveLength(0);
  });

  it('withdraws its request when a hook request for the same dialog arrives after it was raised', async () => {
    let covered = false;
    const t = setup({ covered: () => covered });
    bridges.push(t.bridge);
    t.show(dialog('Do you want to run ls?'));
    await vi.waitFor(() => expect(t.waiting).toEqual([true]));
    covered = true; // claude's PermissionRequest hook reached the runner late
    t.show(dialog('Do you want to run ls?'));
    await vi.waitFor(() => expect(t.withdrawals()).toHaveLength(1));
    expect(t.withdrawals()[0]!.payload).toMatchObject({ reason: 'a hook request covers it' });
    covered = false;
    t.show(dialog('Do you want to run ls?')); // still that dialog: it stays the hook's
    await new Promise((r) => setTimeout(r, 60));
    expect(t.requests()).toHaveLength(1);
  });

  it('presses the chosen option\'s keys, from where the marker is at answer time', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(dialog('Accessing workspace:', 0));
    await vi.waitFor(() => expect(t.waiting).toEqual([true]));
    t.setScreen(dialog('Accessing workspace:', 1)); // the desk moved the marker meanwhile
    expect(t.registry.answered({ requestId: String(t.requests()[0]!.payload.id), answer: { decision: 'allow', choice: '2' } })).toBe(true);
    await vi.waitFor(() => expect(t.keys).toEqual(['\r']));
    expect(t.waiting).toEqual([true, false]);
    // Still drawn while claude takes the key: not raised again.
    t.show(dialog('Accessing workspace:', 1));
    await new Promise((r) => setTimeout(r, 60));
    expect(t.requests()).toHaveLength(1);
    expect(t.withdrawals()).toHaveLength(0);
    expect(t.deskAnswers()).toHaveLength(0);
  });

  it('presses nothing when the dialog left the screen before the answer came', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(dialog('Switch model?', 0, true));
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
    t.setScreen(null);
    expect(t.registry.answered({ requestId: String(t.requests()[0]!.payload.id), answer: { decision: 'allow', choice: '1' } })).toBe(true);
    t.setScreen(dialog('Another dialog', 0, true));
    await new Promise((r) => setTimeout(r, 40));
    expect(t.keys).toEqual([]);
  });

  it('presses nothing for an answer that names no option, and ignores answers to other requests', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(dialog('Switch model?', 0, true));
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
    expect(t.registry.answered({ requestId: 'someone-else', answer: { decision: 'allow' } })).toBe(false);
    expect(t.registry.answered({ requestId: String(t.requests()[0]!.payload.id), answer: { decision: 'deny' } })).toBe(true);
    await new Promise((r) => setTimeout(r, 40));
    expect(t.keys).toEqual([]);
  });

  it('asks once the hub link is up (a start-up dialog comes before the session is registered)', async () => {
    let up = false;
    const t = setup({ linkUp: () => up });
    bridges.push(t.bridge);
    t.show(dialog('Detected a custom API key'));
    await new Promise((r) => setTimeout(r, 80));
    expect(t.requests()).toHaveLength(0);
    expect(t.waiting).toEqual([]); // the session says it waits once the hub has the request
    up = true;
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
    await vi.waitFor(() => expect(t.waiting).toEqual([true]));
  });
});

/** Gemini's question as read: options 1–2 and a custom-value field on 3, focused or not, typed or not. */
function question(o: { cursor?: number; focused?: boolean; typed?: string; headline?: string } = {}): ScreenDialog {
  const headline = o.headline ?? 'Which database?';
  const typed = o.typed ?? '';
  const options = [
    { key: '1', label: 'SQLite' },
    { key: '2', label: 'PostgreSQL' },
    { key: '3', label: typed || 'Enter a custom value' },
  ];
  return {
    title: 'Answer Questions',
    text: ['Answer Questions', '', headline, '', ...options.map((option) => `  ${option.key}.  ${option.label}`)],
    options,
    numbered: true,
    cursor: o.cursor ?? 0,
    signature: JSON.stringify([headline, options, o.focused]),
    identity: JSON.stringify([headline]),
    headline,
    freeText: { key: '3', focused: o.focused ?? false, typed, ...(typed ? {} : { placeholder: 'Enter a custom value' }) },
  };
}

describe('dialog bridge: a typed answer', () => {
  /** A screen that follows the keys written: arrows move the marker (onto 3: the field is focused),
   *  a paste types into the focused field. */
  function followingScreen(t: ReturnType<typeof setup>, start: ScreenDialog) {
    let now = start;
    t.setScreen(now);
    return {
      key: (k: string) => {
        if (k.startsWith('\x1b[200~')) now = question({ cursor: 2, focused: true, typed: k.slice(6, -6), headline: now.headline! });
        else if (k === '\x1b[B\x1b[B') now = question({ cursor: 2, focused: true, headline: now.headline! });
        t.setScreen(now);
      },
    };
  }

  it('moves to the field with arrows, pastes the cleaned words once, and presses Enter only after the field shows them', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(question());
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
    expect(t.requests()[0]!.payload.toolInput).toMatchObject({ headline: 'Which database?', freeText: { key: '3', maxChars: 600, placeholder: 'Enter a custom value' } });
    const screen = followingScreen(t, question());
    const seenKeys = t.keys;
    const push = seenKeys.push.bind(seenKeys);
    seenKeys.push = (...k: string[]) => {
      for (const one of k) screen.key(one);
      return push(...k);
    };
    t.registry.answered({ requestId: String(t.requests()[0]!.payload.id), answer: { decision: 'allow', choice: '3', text: 'my\x1b[2J own\tdb\x1b' } });
    // The typing waits on redraws (50 ms polls): more than vi.waitFor's default second on a cold, loaded run.
    await vi.waitFor(() => expect(t.keys.at(-1)).toBe('\r'), { timeout: 5_000 });
    expect(JSON.stringify(t.keys)).toBe(JSON.stringify(['\x1b[B\x1b[B', '\x1b[200~my[2J own db\x1b[201~', '\r']));
  });

  it('types nothing when the question on screen changed before the answer, and asks again saying why', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(question());
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
    t.setScreen(question({ headline: 'Which cache?' }));
    t.registry.answered({ requestId: String(t.requests()[0]!.payload.id), answer: { decision: 'allow', choice: '3', text: 'redis' } });
    await vi.waitFor(() => expect(t.requests()).toHaveLength(2));
    expect(t.keys).toEqual([]);
    expect(t.requests()[1]!.payload.toolInput).toMatchObject({ headline: 'Which cache?', notice: expect.stringMatching(/changed on screen.*nothing was typed/) });
  });

  it('types nothing into a field that already holds words typed at the desk', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(question());
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
    t.setScreen(question({ cursor: 2, focused: true, typed: 'half typed' }));
    t.registry.answered({ requestId: String(t.requests()[0]!.payload.id), answer: { decision: 'allow', choice: '3', text: 'redis' } });
    await vi.waitFor(() => expect(t.requests()).toHaveLength(2));
    expect(t.keys).toEqual([]);
    expect(t.requests()[1]!.payload.toolInput).toMatchObject({ notice: expect.stringMatching(/already holds text/) });
  });

  it('refuses, on the runner too, words over the limit: nothing typed', async () => {
    const t = setup();
    bridges.push(t.bridge);
    t.show(question());
    await vi.waitFor(() => expect(t.requests()).toHaveLength(1));
    t.registry.answered({ requestId: String(t.requests()[0]!.payload.id), answer: { decision: 'allow', choice: '3', text: 'x'.repeat(601) } });
    await vi.waitFor(() => expect(t.requests()).toHaveLength(2));
    expect(t.keys).toEqual([]);
    expect(t.requests()[1]!.payload.toolInput).toMatchObject({ notice: expect.stringMatching(/at most 600/) });
  });
});
