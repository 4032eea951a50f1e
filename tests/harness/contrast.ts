// contrast.ts (harness): the WCAG contrast of text as a person sees it, for the controls axe-core
// leaves out. axe skips disabled controls (WCAG exempts them), but a dimmed key is still read by
// someone deciding whether to wait for it, and an axe run that catches a control mid-change judges
// whatever colours it has then. So the tests measure those controls themselves.
//
//   const ratios = await contrastOf(page, '.quick-key');   // [{ label: 'Ctrl', ratio: 6.1 }, …]
//
// The text colour and the element's background are composited over the first opaque background
// behind it, then the element's opacity (and its ancestors') over that same backdrop.
import type { Page } from 'playwright-core';

export type Contrast = { label: string; ratio: number; disabled: boolean };

export async function contrastOf(page: Page, selector: string): Promise<Contrast[]> {
  return page.evaluate((sel) => {
    type Rgba = [number, number, number, number];
    const parse = (css: string): Rgba => {
      const m = /rgba?\(([^)]+)\)/.exec(css);
      if (!m) return [0, 0, 0, 0];
      const parts = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
    };
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3];
      return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
    };
    const luminance = (c: Rgba): number => {
      const lin = (v: number) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
    };
    /** The opaque colour behind `el`: its ancestors' backgrounds composited top-down, white at the root. */
    const backdrop = (el: Element | null): Rgba => {
      const layers: Rgba[] = [];
      for (let node = el; node; node = node.parentElement) {
        const bg = parse(getComputedStyle(node).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      return layers.reduceRight<Rgba>((below, layer) => over(layer, below), [255, 255, 255, 1]);
    };
    const opacity = (el: Element): number => {
      let o = 1;
      for (let node: Element | null = el; node; node = node.parentElement) o *= Number(getComputedStyle(node).opacity);
      return o;
    };
    return [...document.querySelectorAll(sel)].map((el) => {
      const style = getComputedStyle(el);
      const behind = backdrop(el.parentElement);
      const bg = over(parse(style.backgroundColor), behind);
      const fg = over(parse(style.color), bg);
      const o = opacity(el);
      const seenBg = over([bg[0], bg[1], bg[2], o], behind);
      const seenFg = over([fg[0], fg[1], fg[2], o], behind);
      const [hi, lo] = [luminance(seenFg), luminance(seenBg)].sort((a, b) => b - a) as [number, number];
      return {
        label: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim(),
        ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100,
        disabled: (el as HTMLButtonElement).disabled === true || el.getAttribute('aria-disabled') === 'true',
      };
    });
  }, selector);
}
