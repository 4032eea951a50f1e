// static.ts (routes): serves the built web app. Files under webDist by path; any other GET that is
// not an API path gets index.html (client-side routes). Without a build, `/` explains how to make one.
// Invariant: a request path can never resolve outside webDist.
import { existsSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { Hono } from 'hono';
import type { HubHttpEnv } from '../env.ts';

/** Vite puts content-hashed files under assets/: they never change, so cache them for a year. */
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export function createStaticRoutes(options: { webDist?: string }) {
  const app = new Hono<HubHttpEnv>();
  const root = options.webDist ? resolve(options.webDist) : null;
  const index = root ? resolve(root, 'index.html') : null;

  app.get('*', async (c) => {
    if (!root || !index || !existsSync(index)) {
      return c.text('tether hub is running; web app not built, run npm start (or bun run build:web)\n', 503);
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return c.text('bad path', 400);
    }
    const target = resolve(root, `.${pathname}`);
    const inside = target === root || target.startsWith(root + sep);
    if (inside && target !== root && !pathname.includes('\0') && existsSync(target) && statSync(target).isFile()) {
      const file = Bun.file(target);
      const cache = pathname.startsWith('/assets/') ? IMMUTABLE_CACHE : 'no-cache';
      return new Response(file, { headers: { 'Content-Type': file.type, 'Cache-Control': cache } });
    }
    // A missing asset is a real 404; anything else is a client-side route.
    if (pathname.startsWith('/assets/')) return c.text('not found', 404);
    return new Response(Bun.file(index), { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' } });
  });
  return app;
}
