// static.ts (routes): serves the built web app. Files under webDist by path; any other GET that is
// not an API path gets index.html (client-side routes). Without a build, `/` explains how to make one.
// Invariant: a request path can never resolve outside webDist.
import { existsSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { Hono, type Context } from 'hono';
import type { HubHttpEnv } from '../env.ts';
import { chooseEncoding, encodedFile, isCompressible } from './static-encoding.ts';

/** Vite puts content-hashed files under assets/: they never change, so cache them for a year. */
const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, sw.js, the manifest, icons) is asked again each time: sw.js must be,
 *  or a new build would never reach an installed app (docs/decisions/web.md, "App shell"). */
const REVALIDATE = 'no-cache';

/** A file of the build, compressed when the browser takes it and it is worth it. */
async function fileResponse(o: { path: string; type: string; cache: string; acceptEncoding: string | undefined }): Promise<Response> {
  const file = Bun.file(o.path);
  const headers: Record<string, string> = { 'Content-Type': o.type, 'Cache-Control': o.cache };
  if (!isCompressible(o.path, file.size)) return new Response(file, { headers });
  headers.Vary = 'Accept-Encoding';
  const encoding = chooseEncoding(o.acceptEncoding);
  if (!encoding) return new Response(file, { headers });
  return new Response(await encodedFile(o.path, encoding), { headers: { ...headers, 'Content-Encoding': encoding } });
}

function notBuilt(c: Context<HubHttpEnv>): Response {
  return c.text('tether hub is running; web app not built, run npm start (or bun run build:web)\n', 503);
}

export function createStaticRoutes(options: { webDist?: string }) {
  const app = new Hono<HubHttpEnv>();
  const root = options.webDist ? resolve(options.webDist) : null;
  const index = root ? resolve(root, 'index.html') : null;

  app.get('*', async (c) => {
    if (!root || !index) return notBuilt(c);
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return c.text('bad path', 400);
    }
    const target = resolve(root, `.${pathname}`);
    const inside = target === root || target.startsWith(root + sep);
    if (inside && target !== root && !pathname.includes('\0') && existsSync(target) && statSync(target).isFile()) {
      const cache = pathname.startsWith('/assets/') ? IMMUTABLE_CACHE : REVALIDATE;
      return fileResponse({ path: target, type: Bun.file(target).type, cache, acceptEncoding: c.req.header('accept-encoding') });
    }
    // A missing asset is a real 404; anything else is a client-side route. A file that is there is
    // served without the shell: an open page's lazy chunk got 503 while index.html alone was missing
    // and reloaded itself into a hub with no shell to give.
    if (pathname.startsWith('/assets/')) return c.text('not found', 404);
    if (!existsSync(index)) return notBuilt(c);
    return fileResponse({ path: index, type: 'text/html; charset=utf-8', cache: REVALIDATE, acceptEncoding: c.req.header('accept-encoding') });
  });
  return app;
}
