// terminal-replay.test.ts: a real runner process streams its PTY through a real hub to /web viewers.
// A viewer that joins late, or leaves and rejoins with `since`, ends up with the same screen as one
// that watched all along (both rendered by @xterm/headless); history older than the hub's log is
// replaced by a snapshot that renders the same screen.
import { beforeAll, describe, expect, it } from 'vitest';
import { startHub, type HubHandle } from '../harness/hub.ts';
import { startCommandRunner, viewTerminal, type TerminalViewer } from '../harness/terminal.ts';
import { useFileCleanups } from '../harness/cleanups.ts';

/** The hub's per-terminal log in this file: small, so outgrowing it takes little output. */
const LOG_BYTES = 64 * 1024;
let hub: HubHandle;
const defer = useFileCleanups();

beforeAll(async () => {
  hub = await startHub({ terminalLogBytes: LOG_BYTES });
  defer(() => hub.stop());
});

function track<T extends { stop(): unknown }>(x: T): T {
  defer(() => x.stop());
  return x;
}

/** Prints `count` coloured, numbered lines of varying width for every line it reads ("tag"). */
export const BURST = (count: number) =>
  `stty -echo; while read -r tag; do awk -v tag="$tag" -v n=${count} 'BEGIN { for (i = 0; i < n; i++) { bar = ""; for (j = 0; j < i % 50; j++) bar = bar "="; printf "\\033[3%dm%s line %05d\\033[0m %s\\n", i % 7 + 1, tag, i, bar } }'; echo "done $tag"; done`;

async function expectSameScreen(a: TerminalViewer, b: TerminalViewer) {
  await a.waitFor(() => a.offset() === b.offset(), 'the same offset');
  await b.waitFor(() => b.offset() === a.offset(), 'the same offset');
  await Promise.all([a.settled(), b.settled()]);
  expect(a.screen()).toBe(b.screen());
}

async function burst(viewer: TerminalViewer, sessionId: string, tag: string) {
  expect((await viewer.emit('terminal:input', { sessionId, data: `${tag}\r` })).ok).toBe(true);
  await viewer.waitFor(() => viewer.screen().includes(`done ${tag}`), `burst ${tag}`);
}

describe('terminal replay', () => {
  it('late joiner and `since` rejoiner: same screen as the always-connected viewer, exact bytes', async () => {
    const runner = track(startCommandRunner({ hub, command: BURST(40) }));
    const sid = runner.sessionId;
    const live = track(await viewTerminal({ url: hub.url, token: hub.token, sessionId: sid }));
    await live.waitFor(() => live.snapshots() > 0, 'the first snapshot');
    await burst(live, sid, 'one');

    const late = track(await viewTerminal({ url: hub.url, token: hub.token, sessionId: sid }));
    await expectSameScreen(late, live);

    // `late` leaves (keeping its emulator), output goes on, it rejoins from its offset.
    const at = late.offset();
    const before = late.bytesReceived();
    await late.unsubscribe();
    await burst(live, sid, 'two');
    expect(await late.subscribe(at)).toMatchObject({ ok: true, mode: 'bytes', offset: at });
    await expectSameScreen(late, live);
    expect(late.snapshots()).toBe(1); // only the one it joined with
    expect(late.bytesReceived() - before).toBe(live.offset() - at);

    // A new socket (a dropped connection) resuming at `at` gets exactly the missed bytes too.
    const other = track(await viewTerminal({ url: hub.url, token: hub.token, sessionId: sid, since: at }));
    await other.waitFor(() => other.offset() === live.offset(), 'the missed bytes');
    expect(other.snapshots()).toBe(0);
    expect(other.bytesReceived()).toBe(live.offset() - at);
    for (const v of [live, late, other]) expect(v.misplaced()).toBe(0);
  });

  it('history older than the hub log: the rejoiner gets a snapshot that renders the same screen', async () => {
    const runner = track(startCommandRunner({ hub, command: BURST(1500) }));
    const sid = runner.sessionId;
    const live = track(await viewTerminal({ url: hub.url, token: hub.token, sessionId: sid }));
    await live.waitFor(() => live.snapshots() > 0, 'the first snapshot');
    const away = track(await viewTerminal({ url: hub.url, token: hub.token, sessionId: sid }));
    await burst(live, sid, 'one');
    await expectSameScreen(away, live);

    await away.unsubscribe();
    const at = away.offset();
    await burst(live, sid, 'two');
    await burst(live, sid, 'three');
    expect(live.offset() - at).toBeGreaterThan(LOG_BYTES);
    expect(await away.subscribe(at)).toMatchObject({ ok: true, mode: 'snapshot' });
    await expectSameScreen(away, live);
    expect(away.snapshots()).toBe(2);

    // A fresh joiner after all of it: also a snapshot, also the same screen.
    const fresh = track(await viewTerminal({ url: hub.url, token: hub.token, sessionId: sid }));
    await expectSameScreen(fresh, live);
    // The snapshot carries history too: the last lines of scrollback match.
    const tail = (v: TerminalViewer) => v.buffer().trimEnd().split('\n').slice(-100).join('\n');
    expect(tail(fresh)).toBe(tail(live));
  });
});
