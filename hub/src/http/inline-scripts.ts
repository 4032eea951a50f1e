// inline-scripts.ts: the CSP hashes of the inline scripts in the built web app's index.html, read once
// when the hub starts. The shell has one (it trades a QR link's code for a session while the app's code
// downloads: docs/decisions/web.md, "First visit"); script-src allows exactly those bytes, nothing
// else inline.
//
//   webDist/index.html ─<script> without src─► sha256, base64 ─► 'sha256-…' in script-src
//
// A rebuild in place while the hub runs changes the script's bytes: the browser then refuses it and
// the app does the same exchange itself a little later (web/src/lib/hub.ts). Fails closed.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `'sha256-…'` sources for script-src, one per inline script of index.html (none without a build). */
export function inlineScriptSources(webDist: string | undefined): string[] {
  const index = webDist ? join(webDist, 'index.html') : null;
  if (!index || !existsSync(index)) return [];
  const html = readFileSync(index, 'utf8');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`);
}
