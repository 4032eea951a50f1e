// _authed.sessions.$sessionId.terminal.tsx: `/sessions/:id/terminal`, the live terminal tab of a
// PTY session. xterm loads on demand: it is not in the first-load bundle.
// `?run=&start=&end=&tool=&hint=`: open at a tool call's moment ("Show in terminal" on a tool card).
// `?find=<text>`: open at the newest line holding the text (Find's result).
// Checked by hand, not with zod (zod stays off the first load; see the session layout).
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { routeCode } from '../lib/route-code.ts';
import { Route as sessionRoute } from './_authed.sessions.$sessionId.tsx';

export type TerminalSearch = { run?: string; start?: number; end?: number; tool?: string; hint?: string; find?: string };

const OFFSET_MAX = Number.MAX_SAFE_INTEGER;
const isOffset = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= OFFSET_MAX;
const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);

/** A moment is kept only whole and sane (a run, a start, an end not before it); the rest is dropped. */
export function parseTerminalSearch(raw: Record<string, unknown>): TerminalSearch {
  const find = text(raw.find, 400);
  if (find !== undefined) return { find };
  const run = text(raw.run, 64);
  if (!run || !isOffset(raw.start)) return {};
  const end = isOffset(raw.end) && raw.end >= raw.start ? raw.end : undefined;
  return { run, start: raw.start, ...(end !== undefined ? { end } : {}), tool: text(raw.tool, 200) ?? '', hint: text(raw.hint, 200) ?? '' };
}

export const Route = createRoute({
  getParentRoute: () => sessionRoute,
  path: 'terminal',
  validateSearch: parseTerminalSearch,
  component: lazyRouteComponent(routeCode(() => import('./-session-terminal.tsx')), 'SessionTerminal'),
});
