import { DIRECTORY_PAGE_SIZE, type RegionSummary } from '@pixel-atlas/contracts/directory';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { absolute, escapeHtml } from './render-share-page.ts';

/** URLs per sitemap file: well under the protocol's 50,000, so a chunk stays a few hundred KB compressed. */
export const SITEMAP_CHUNK_SIZE = 10_000;

export const STATIC_PAGES = ['/', '/about', '/faq', '/contact', '/terms', '/privacy'];

/** What every sitemap file is built from: the public plot list and the regions, fetched once per change. */
export interface SitemapSource {
  /** Oldest claim first (then id): a plot keeps its chunk as others are claimed after it. */
  plots: Plot[];
  /** Distinct owner names, in the order of their first claim, with their latest change. */
  users: Array<{ name: string; lastmod: string }>;
  regions: RegionSummary[];
}

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : undefined);
/** An owner's edit is news for crawlers: a plot page's date is its last change. */
const plotDate = (plot: Plot) => plot.updated_at ?? plot.created_at;
const latest = (dates: Array<string | undefined>) => dates.reduce<string | undefined>((a, b) => (b && (!a || b > a) ? b : a), undefined);

export function sitemapSource(plots: Plot[], regions: RegionSummary[]): SitemapSource {
  const ordered = [...plots].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  const users = new Map<string, string>();
  for (const plot of ordered) {
    const previous = users.get(plot.display_name);
    const date = plotDate(plot);
    if (previous === undefined || date > previous) users.set(plot.display_name, date);
  }
  return { plots: ordered, users: [...users].map(([name, lastmod]) => ({ name, lastmod })), regions };
}

const chunkCount = (n: number) => Math.ceil(n / SITEMAP_CHUNK_SIZE);
const chunk = <T>(items: T[], n: number) => items.slice((n - 1) * SITEMAP_CHUNK_SIZE, n * SITEMAP_CHUNK_SIZE);
const lastmodTag = (date: string | undefined) => (date ? `<lastmod>${escapeHtml(day(date)!)}</lastmod>` : '');

function urlset(urls: Array<{ loc: string; lastmod?: string }>): string {
  const entries = urls.map((u) => `  <url><loc>${escapeHtml(u.loc)}</loc>${lastmodTag(u.lastmod)}</url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`;
}

/** Each region's page addresses: page 1 at `/regions/<slug>`, then `?page=2`… (an empty region still has page 1). */
function regionPages(origin: string, region: RegionSummary): Array<{ loc: string; lastmod?: string }> {
  const pageCount = Math.max(1, Math.ceil(region.plotCount / DIRECTORY_PAGE_SIZE));
  const base = `/regions/${encodeURIComponent(region.slug)}`;
  return Array.from({ length: pageCount }, (_, i) => ({
    loc: absolute(origin, i === 0 ? base : `${base}?page=${i + 1}`),
    lastmod: region.lastModified ?? undefined,
  }));
}

/** `/sitemaps/pages.xml`: the static pages, the region list and every page of every region. */
export function renderPagesSitemap(origin: string, source: SitemapSource): string {
  return urlset([
    ...STATIC_PAGES.map((p) => ({ loc: absolute(origin, p) })),
    { loc: absolute(origin, '/regions'), lastmod: latest(source.regions.map((r) => r.lastModified ?? undefined)) },
    ...source.regions.flatMap((region) => regionPages(origin, region)),
  ]);
}

/** `/sitemaps/plots-<n>.xml` (n from 1), or null past the last chunk. */
export function renderPlotsSitemap(origin: string, source: SitemapSource, n: number): string | null {
  if (n < 1 || n > chunkCount(source.plots.length)) return null;
  return urlset(chunk(source.plots, n).map((p) => ({ loc: absolute(origin, `/plot/${p.id}`), lastmod: plotDate(p) })));
}

/** `/sitemaps/users-<n>.xml` (n from 1), or null past the last chunk. */
export function renderUsersSitemap(origin: string, source: SitemapSource, n: number): string | null {
  if (n < 1 || n > chunkCount(source.users.length)) return null;
  return urlset(chunk(source.users, n).map((u) => ({ loc: absolute(origin, `/user/${encodeURIComponent(u.name)}`), lastmod: u.lastmod })));
}

/** `/sitemap.xml`: the index of the files above, each dated by its latest change. */
export function renderSitemapIndex(origin: string, source: SitemapSource): string {
  const files: Array<{ loc: string; lastmod?: string }> = [
    { loc: absolute(origin, '/sitemaps/pages.xml'), lastmod: latest(source.regions.map((r) => r.lastModified ?? undefined)) },
  ];
  for (let n = 1; n <= chunkCount(source.plots.length); n += 1) {
    files.push({ loc: absolute(origin, `/sitemaps/plots-${n}.xml`), lastmod: latest(chunk(source.plots, n).map(plotDate)) });
  }
  for (let n = 1; n <= chunkCount(source.users.length); n += 1) {
    files.push({ loc: absolute(origin, `/sitemaps/users-${n}.xml`), lastmod: latest(chunk(source.users, n).map((u) => u.lastmod)) });
  }
  const entries = files.map((f) => `  <sitemap><loc>${escapeHtml(f.loc)}</loc>${lastmodTag(f.lastmod)}</sitemap>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</sitemapindex>\n`;
}

export function renderRobots(origin: string): string {
  return `User-agent: *\nDisallow: /admin\nDisallow: /claim\nDisallow: /api/\nAllow: /api/plots/\n\nSitemap: ${absolute(origin, '/sitemap.xml')}\n`;
}
