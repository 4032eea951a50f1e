// make-icons.ts: draws the PWA icons (PNG) from the tether mark with the same Chromium the browser
// tests use; no network, no image library. Run after changing the mark, then commit the PNGs:
//   bun web/scripts/make-icons.ts
// "any" icons have rounded corners like icon.svg; "maskable" ones fill the square and keep the mark
// inside the 80% safe zone, so a launcher's circle or squircle crop never cuts it.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../../tests/harness/browser.ts';

const OUT = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'public', 'icons');
const ACCENT = '#c4623e';

function mark(options: { maskable: boolean }): string {
  // The mark is drawn on a 32-unit grid; maskable icons shrink it to the safe zone.
  const scale = options.maskable ? 0.62 : 1;
  const offset = (32 - 32 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="100%" height="100%">
    <rect width="32" height="32" rx="${options.maskable ? 0 : 7}" fill="${ACCENT}"/>
    <g transform="translate(${offset} ${offset}) scale(${scale})">
      <circle cx="10" cy="21" r="3.2" fill="none" stroke="#fff" stroke-width="2.2"/>
      <circle cx="22" cy="11" r="3.2" fill="#fff"/>
      <path d="M12.4 18.6l7.2-5.2" stroke="#fff" stroke-width="2.2" stroke-linecap="round"/>
    </g>
  </svg>`;
}

const ICONS = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'maskable-512.png', size: 512, maskable: true },
  // iOS ignores the manifest's icons and draws its own rounded corners.
  { file: 'apple-touch-icon.png', size: 180, maskable: true },
];

mkdirSync(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    await page.setContent(`<html><body style="margin:0;background:transparent">${mark(icon)}</body></html>`);
    await page.screenshot({ path: join(OUT, icon.file), omitBackground: true, clip: { x: 0, y: 0, width: icon.size, height: icon.size } });
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(`icons written to ${OUT}`);
