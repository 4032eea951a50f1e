// shell-viewer-id.ts: this tab's web-shell viewer id. It lives in sessionStorage so a reload (or a
// reconnect) reattaches to the same shell, and another phone or tab gets a shell of its own. A
// duplicated tab copies sessionStorage, id included, and would take over the first tab's shell; so
// before using a stored id the tab asks the other tabs of this browser (BroadcastChannel) whether
// one of them already uses it, and takes a fresh id if so. A reload asks too: its previous document
// is gone, nobody answers, and it keeps its id.
const VIEWER_KEY = 'tether.shell-viewer';
const CHANNEL = 'tether.shell-viewers';
/** How long a tab waits for another tab to say the id is taken. Same-browser messages take ~1 ms,
 *  but a busy browser answered later than 150 ms once in the tests (the copy then took the first
 *  tab's shell); a reload pays this wait before it reattaches. */
const CLAIM_WAIT_MS = 500;
const VALID_ID = /^[A-Za-z0-9_-]{16,64}$/;

type Message = { type: 'claim' | 'taken'; id: string };

let claimed: Promise<string> | null = null;

/** This tab's viewer id (asked once per document). */
export function shellViewerId(): Promise<string> {
  claimed ??= claim();
  return claimed;
}

async function claim(): Promise<string> {
  const stored = sessionStorage.getItem(VIEWER_KEY);
  let id = stored && VALID_ID.test(stored) ? stored : null;
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  if (id && channel && (await takenElsewhere(channel, id))) id = null;
  if (!id) {
    id = crypto.randomUUID().replace(/-/g, '');
    sessionStorage.setItem(VIEWER_KEY, id);
  }
  const mine = id;
  // From here on this tab holds the id: it answers tabs that claim the same one.
  channel?.addEventListener('message', (event: MessageEvent<Message>) => {
    if (event.data?.type === 'claim' && event.data.id === mine) channel.postMessage({ type: 'taken', id: mine } satisfies Message);
  });
  return mine;
}

function takenElsewhere(channel: BroadcastChannel, id: string): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (taken: boolean) => {
      clearTimeout(timer);
      channel.removeEventListener('message', onMessage);
      resolve(taken);
    };
    const onMessage = (event: MessageEvent<Message>) => {
      if (event.data?.type === 'taken' && event.data.id === id) done(true);
    };
    const timer = setTimeout(() => done(false), CLAIM_WAIT_MS);
    channel.addEventListener('message', onMessage);
    channel.postMessage({ type: 'claim', id } satisfies Message);
  });
}
