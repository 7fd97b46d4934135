import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { describe, expect, it } from 'vitest';
import { injectPageMeta, plotPageMeta, userPageMeta } from './render-share-page.ts';

const WEB_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/src');
const PLOT_PAGE = readFileSync(path.join(WEB_SRC, 'pages/plot-page.tsx'), 'utf8');

const plot: Plot = {
  id: '5f1d2c3b-4a59-4e8f-8d7c-6b5a49382716',
  zone: 'creator',
  tier: 'featured',
  x: 12,
  y: 34,
  display_name: 'Ada <Pixel>',
  message: 'Pixel art every day',
  link: 'https://ada.example/',
  avatar_url: '/api/plots/5f1d2c3b-4a59-4e8f-8d7c-6b5a49382716/avatar',
  created_at: '2026-11-22T10:00:00.000Z',
  flagged: false,
  reviewed: true,
  region_name: 'Creator Coast',
};

const body = () => plotPageMeta(plot, { origin: 'https://atlas.example', siteName: 'Pixel Atlas', linkRel: 'noopener' }).bodyHtml;
const classesOf = (html: string) => [...html.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/).filter(Boolean));

function webSources(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) =>
      entry.isDirectory()
        ? webSources(path.join(dir, entry.name))
        : /\.tsx?$/.test(entry.name)
          ? readFileSync(path.join(dir, entry.name), 'utf8')
          : '',
    )
    .join('\n');
}

describe('the server-rendered /plot/:id body', () => {
  it("takes the SPA plot page's frame: its container reserves the first screen (min-h-dvh), so the footer never moves into view", () => {
    const html = body();
    // The frame every state of web/src/pages/plot-page.tsx renders in.
    expect(PLOT_PAGE).toMatch(/PLOT_FRAME_CLASS = 'min-h-dvh'/);
    expect(html).toMatch(/<\/header><main id="main" class="flex-1"><div class="[^"]*\bmin-h-dvh\b[^"]*">/);
    expect(html).toContain('class="pixel-panel mt-4 p-6"');
    expect(html).toContain('class="size-28 shrink-0"');
    // The same article the SPA renders: the panel and the 112 px avatar are classes of its profile too.
    expect(PLOT_PAGE).toContain('className="pixel-panel mt-4 p-6"');
    expect(PLOT_PAGE).toContain('className="size-28 shrink-0"');
  });

  it('uses only class names the web sources use, so the built CSS styles them (Tailwind generates what it finds there)', () => {
    const sources = webSources(WEB_SRC);
    const userBody = userPageMeta('Ada <Pixel>', [plot], {
      origin: 'https://atlas.example',
      siteName: 'Pixel Atlas',
      linkRel: 'noopener',
    }).bodyHtml;
    const missing = [...new Set([...classesOf(body()), ...classesOf(userBody)])].filter((name) => !sources.includes(name));
    expect(missing).toEqual([]);
  });

  it('keeps its text escaped and its text elements bare', () => {
    const html = body();
    expect(html).toContain("<h1>Ada &lt;Pixel&gt;'s Plot</h1>");
    expect(html).toContain('<p>Pixel art every day</p>');
    expect(html).toContain('<a href="https://ada.example/" rel="noopener">Visit Website</a>');
    expect(html).not.toContain('<Pixel>');
  });
});

describe('the server-rendered pages with JavaScript off', () => {
  const options = { origin: 'https://atlas.example', siteName: 'Pixel Atlas', linkRel: 'noopener' };

  it('have the site header: the title, its links, Claim Your Tile as a link and the menu as a native disclosure', () => {
    for (const html of [body(), userPageMeta('Ada', [plot], options).bodyHtml]) {
      expect(html).toMatch(/^<header class="fixed [^"]*">/);
      for (const href of ['/', '/about', '/faq', '/contact', '/#claim-tile']) expect(html).toContain(`<a href="${href}"`);
      expect(html).toMatch(/<details class="group md:hidden"><summary aria-label="Menu"/);
    }
  });

  it('fill the map box of the plot page with the share card when no script draws the map', () => {
    expect(body()).toMatch(/<noscript><img src="\/share-card\/[^"]+\.png\?v=[^"]+" alt="Map of Ada &lt;Pixel&gt;'s plot at \(12, 34\)/);
  });

  it('say "1 plot claimed" and "2 plots claimed", in the user page\'s own container and cards', () => {
    expect(userPageMeta('Ada', [plot], options).bodyHtml).toContain('<p class="mt-3 text-ink-muted">1 plot claimed</p>');
    const two = userPageMeta('Ada', [plot, { ...plot, id: 'b' + plot.id.slice(1) }], options).bodyHtml;
    expect(two).toContain('2 plots claimed');
    expect(two).toContain('<ul class="grid gap-6 sm:grid-cols-2 lg:grid-cols-3"><li><article class="pixel-panel');
    expect(two).toContain('Ada &lt;Pixel&gt;');
  });
});

describe('the SPA shell around a share page', () => {
  const indexHtml =
    '<!doctype html><html><head><title>Pixel Atlas</title></head><body>\n    <div id="root"></div>\n' +
    '    <div id="app-shell" data-path="/"><main><h1>Own a plot</h1></main></div>\n  </body>\n</html>\n';

  it("leaves out the home screen's prerendered shell (the share page's own body is what shows) and keeps the rest", () => {
    const meta = plotPageMeta(plot, { origin: 'https://atlas.example', siteName: 'Pixel Atlas', linkRel: 'noopener' });
    const html = injectPageMeta(indexHtml, meta, 'Pixel Atlas');
    expect(html).not.toContain('app-shell');
    expect(html).not.toContain('Own a plot');
    expect(html).toContain(`<div id="root">${meta.bodyHtml}</div>`);
    expect(html.trimEnd().endsWith('</body>\n</html>')).toBe(true);
  });
});
