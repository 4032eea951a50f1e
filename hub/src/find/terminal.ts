// terminal.ts: a search of one session's terminal as this hub would replay it to a viewer: the last
// screen the runner sent (with up to 1,000 lines of history) and the bytes after it, escape codes
// stripped (escapes.ts). The runner streams bytes only while someone watches, so for a live
// terminal nobody watches the hub first asks for a fresh screen and waits FRESH_SCREEN_WAIT_MS.
// Distinct lines only (a redraw repeats a line), newest first; the web finds the newest row that
// holds the snippet in its own scrollback.
import { FIND_MAX_MATCHES, FIND_SNIPPET_CHARS, lineSnippet, type LinePattern, type TerminalFindMatch, type TerminalSnapshot } from '@tether/shared';
import type { TerminalRoom } from '../terminal/room.ts';
import { stripEscapes } from './escapes.ts';

/** How long a search waits for the screen it asked a runner for (a snapshot takes ~10–100 ms). */
export const FRESH_SCREEN_WAIT_MS = 2_000;
const POLL_MS = 25;

export type TerminalText = { snapshot: Pick<TerminalSnapshot, 'data'> | null; bytes: Uint8Array };

/** What the room holds now: its last screen and the bytes from that screen's offset on. */
export function roomText(room: TerminalRoom): TerminalText {
  const snapshot = room.lastSnapshot;
  const log = room.log;
  const from = snapshot && snapshot.offset >= log.start && snapshot.offset <= log.end ? snapshot.offset : log.start;
  const bytes = log.since(from);
  return { snapshot, bytes: bytes === 'gone' ? new Uint8Array() : bytes };
}

/** A live room nobody streams to: ask its runner for a screen and wait for it (or give up). */
export async function freshRoom(room: TerminalRoom, waitMs = FRESH_SCREEN_WAIT_MS): Promise<boolean> {
  if (room.ended || room.viewerCount > 0) return true;
  const before = room.lastSnapshot;
  room.requestSnapshot();
  for (let waited = 0; waited < waitMs; waited += POLL_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (room.lastSnapshot !== before) return true;
  }
  return false;
}

export function searchTerminalText(o: { text: TerminalText; pattern: LinePattern }): { matches: TerminalFindMatch[]; lines: number; stopped: 'matches' | null } {
  const plain = `${o.text.snapshot ? stripEscapes(o.text.snapshot.data) : ''}\n${stripEscapes(new TextDecoder().decode(o.text.bytes))}`;
  const lines = plain.split('\n');
  const seen = new Set<string>();
  const matches: TerminalFindMatch[] = [];
  let counted = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trimEnd();
    if (line === '') continue;
    counted++;
    if (seen.has(line)) continue;
    const found = o.pattern.match(line);
    if (!found) continue;
    seen.add(line);
    if (matches.length >= FIND_MAX_MATCHES) return { matches, lines: counted, stopped: 'matches' };
    matches.push(lineSnippet(line, found, FIND_SNIPPET_CHARS));
  }
  return { matches, lines: counted, stopped: null };
}
