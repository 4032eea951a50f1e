// _authed.sessions.$sessionId.index.tsx: `/sessions/:id`, the chat tab. The chat code (markdown,
// tool cards) loads on demand, so the session list opens without it. `?at=<seq>&block=<n>&tool=<id>`:
// Find's result, scrolled to and lit up (checked by hand: zod stays off the first load).
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { routeCode } from '../lib/route-code.ts';
import { Route as sessionRoute } from './_authed.sessions.$sessionId.tsx';

export type ChatSearch = { at?: number; block?: number; tool?: string };

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER;

/** A place is kept only whole (a seq and a block); a tool id only as a short plain string. */
export function parseChatSearch(raw: Record<string, unknown>): ChatSearch {
  if (!isCount(raw.at) || !isCount(raw.block)) return {};
  const tool = typeof raw.tool === 'string' && raw.tool.length > 0 && raw.tool.length <= 128 ? raw.tool : undefined;
  return { at: raw.at, block: raw.block, ...(tool ? { tool } : {}) };
}

export const Route = createRoute({
  getParentRoute: () => sessionRoute,
  path: '/',
  validateSearch: parseChatSearch,
  component: lazyRouteComponent(routeCode(() => import('./-session-chat.tsx')), 'SessionChat'),
});
