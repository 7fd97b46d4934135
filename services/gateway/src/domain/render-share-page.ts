import { DISPLAY_NAME_MAX, DISPLAY_NAME_MIN, type Plot } from '@pixel-atlas/contracts/plots';
import { TIER_SIZE, normalizeTier, tierPlotLabel } from '@pixel-atlas/contracts/tiers';
import { zoneName } from '@pixel-atlas/contracts/zones';
import type { RegionList, RegionPage } from '@pixel-atlas/contracts/directory';
import { SHARE_CARD_SIZE, shareCardPath } from './share-card-address.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface PageMeta {
  title: string;
  description: string;
  /** Absent on the not-found page: it has no address of its own. */
  canonicalUrl?: string;
  /** The og:image: the plot's share card (an absolute URL), its size and what it shows. */
  image?: { url: string; width: number; height: number; alt: string };
  /** Open Graph type: a person's page (plot, user) or a list (regions). */
  ogType?: 'profile' | 'website';
  /** Pages that must stay out of search results (the not-found page). */
  noIndex?: boolean;
}

/** What fills #root: the app's own server render and the query data it hydrates from. */
export interface PageBody {
  /** Inner HTML of #root (react-dom/server), or a small static screen. */
  html: string;
  /** JSON of the app's dehydrated queries, for `<script id="pa-state" type="application/json">`. */
  state?: string;
}

/**
 * JSON made safe inside `<script type="application/json">`: no `<` at all, so neither `</script>` nor `<!--` in user
 * text can end or change the element (the web bundle escapes already; this holds whatever it sends).
 */
export function scriptSafeJson(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Where a page's own content goes in the SPA shell. */
type Slot = 'title' | 'head' | 'root';

/**
 * The SPA shell cut once into literal text and slots. Pages are built by concatenation, never by
 * `String.prototype.replace` with page text as the replacement: there `$&`, `` $` ``, `$'` and `$$` in a
 * plot name or a URL are patterns, and a dozen `` $` `` in a user name made a multi-megabyte page.
 */
export interface ShellTemplate {
  /** Literal shell text; slots[i] goes between texts[i] and texts[i + 1]. */
  texts: string[];
  slots: Slot[];
}

interface Cut {
  start: number;
  end: number;
  slot: Slot | null;
}

export function compileShell(indexHtml: string): ShellTemplate {
  const cuts: Cut[] = [];
  const title = /<title>[\s\S]*?<\/title>/.exec(indexHtml);
  // Drop the shell's generic description so crawlers see exactly one.
  const description = /<meta\s+name="description"[^>]*>\s*/i.exec(indexHtml);
  const headEnd = indexHtml.indexOf('</head>');
  const root = indexHtml.indexOf('<div id="root"></div>');
  if (title) cuts.push({ start: title.index, end: title.index + title[0].length, slot: 'title' });
  if (description) cuts.push({ start: description.index, end: description.index + description[0].length, slot: null });
  if (headEnd >= 0) cuts.push({ start: headEnd, end: headEnd, slot: 'head' });
  if (root >= 0) cuts.push({ start: root, end: root + '<div id="root"></div>'.length, slot: 'root' });
  // The home screen's prerendered first screen (web/vite.config.ts writes it last in <body>): a share page shows its own
  // body, so on a phone those 20 KB would only be downloaded to stay hidden.
  const appShell = indexHtml.indexOf('<div id="app-shell"');
  const bodyEnd = indexHtml.lastIndexOf('</body>');
  if (appShell > root && bodyEnd > appShell) cuts.push({ start: appShell, end: bodyEnd, slot: null });
  cuts.sort((a, b) => a.start - b.start || a.end - b.end);
  const shell: ShellTemplate = { texts: [], slots: [] };
  let text = '';
  let at = 0;
  for (const cut of cuts) {
    if (cut.start < at) continue; // overlapping matches in an odd shell: keep the first
    text += indexHtml.slice(at, cut.start);
    at = cut.end;
    if (!cut.slot) continue;
    shell.texts.push(text);
    shell.slots.push(cut.slot);
    text = '';
  }
  shell.texts.push(text + indexHtml.slice(at));
  return shell;
}

/** The page's title, description, Open Graph / Twitter tags, canonical URL and body in the SPA shell. */
export function renderShell(shell: ShellTemplate, meta: PageMeta, siteName: string, body?: PageBody): string {
  const tags = [
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    meta.noIndex ? `<meta name="robots" content="noindex">` : '',
    meta.canonicalUrl ? `<link rel="canonical" href="${escapeHtml(meta.canonicalUrl)}">` : '',
    `<meta property="og:type" content="${meta.ogType ?? 'profile'}">`,
    `<meta property="og:site_name" content="${escapeHtml(siteName)}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    meta.canonicalUrl ? `<meta property="og:url" content="${escapeHtml(meta.canonicalUrl)}">` : '',
    ...(meta.image
      ? [
          `<meta property="og:image" content="${escapeHtml(meta.image.url)}">`,
          `<meta property="og:image:type" content="image/png">`,
          `<meta property="og:image:width" content="${meta.image.width}">`,
          `<meta property="og:image:height" content="${meta.image.height}">`,
          `<meta property="og:image:alt" content="${escapeHtml(meta.image.alt)}">`,
        ]
      : []),
    `<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}">`,
    meta.image ? `<meta name="twitter:image" content="${escapeHtml(meta.image.url)}">` : '',
    meta.image ? `<meta name="twitter:image:alt" content="${escapeHtml(meta.image.alt)}">` : '',
  ].filter(Boolean);
  const fill: Record<Slot, string> = {
    title: `<title>${escapeHtml(meta.title)}</title>`,
    head: `    ${tags.join('\n    ')}\n  `,
    // The state after #root: the app's module script runs once the document is parsed, and finds both.
    root:
      `<div id="root">${body?.html ?? ''}</div>` +
      (body?.state === undefined ? '' : `<script id="pa-state" type="application/json">${scriptSafeJson(body.state)}</script>`),
  };
  let html = '';
  shell.texts.forEach((text, i) => {
    html += text;
    const slot = shell.slots[i];
    if (slot) html += fill[slot];
  });
  return html;
}

/** One-off form of compileShell + renderShell. */
export function injectPageMeta(indexHtml: string, meta: PageMeta, siteName: string, body?: PageBody): string {
  return renderShell(compileShell(indexHtml), meta, siteName, body);
}

export function absolute(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, origin).toString();
}

/** The plot's share card as the page's og:image. */
function shareCardImage(plot: Plot, options: { origin: string; siteName: string }): NonNullable<PageMeta['image']> {
  return {
    url: absolute(options.origin, shareCardPath(plot)),
    ...SHARE_CARD_SIZE,
    alt: `${plot.display_name}'s ${tierPlotLabel(plot.tier)} at (${plot.x}, ${plot.y}) on the ${options.siteName} map`,
  };
}

export interface MetaOptions {
  origin: string;
  siteName: string;
}

export function plotPageMeta(plot: Plot, options: MetaOptions): PageMeta {
  const zone = zoneName(plot.zone);
  const tierLabel = tierPlotLabel(plot.tier);
  return {
    title: `${plot.display_name}'s Plot - ${options.siteName}`,
    description: plot.message || `A ${tierLabel} at (${plot.x}, ${plot.y}) in ${zone} on ${options.siteName}.`,
    canonicalUrl: absolute(options.origin, `/plot/${plot.id}`),
    image: shareCardImage(plot, options),
  };
}

export function userPageMeta(username: string, plots: Plot[], options: MetaOptions): PageMeta {
  // The card of their biggest plot (the oldest among equals): what they would most likely show.
  const showcase = [...plots].sort(
    (a, b) => TIER_SIZE[normalizeTier(b.tier)] - TIER_SIZE[normalizeTier(a.tier)] || a.created_at.localeCompare(b.created_at),
  )[0];
  return {
    title: `${username}'s Atlas - ${options.siteName}`,
    image: showcase ? shareCardImage(showcase, options) : undefined,
    description: `${username} has claimed ${plots.length} plot${plots.length === 1 ? '' : 's'} on ${options.siteName}.`,
    canonicalUrl: absolute(options.origin, `/user/${encodeURIComponent(username)}`),
    // Any name answers (the spec's "hasn't claimed any plots yet"), so a page without plots holds only what whoever
    // wrote the address typed: kept out of search results, or anyone could publish "<their words>'s Atlas" here.
    noIndex: plots.length === 0,
  };
}

const plotCount = (n: number) => `${n} ${n === 1 ? 'plot' : 'plots'}`;

export function regionsPageMeta(list: RegionList, options: MetaOptions): PageMeta {
  const total = list.regions.reduce((sum, region) => sum + region.plotCount, 0);
  return {
    title: `Regions - ${options.siteName}`,
    description: `${plotCount(total)} claimed across ${list.regions.length} regions of the ${options.siteName} map.`,
    canonicalUrl: absolute(options.origin, '/regions'),
    ogType: 'website',
  };
}

/** Page k > 1 is its own address (crawlers index each page of the list), titled apart from page 1. */
export function regionPageMeta(page: RegionPage, options: MetaOptions): PageMeta {
  const { region } = page;
  const path = `/regions/${encodeURIComponent(region.slug)}${page.page > 1 ? `?page=${page.page}` : ''}`;
  return {
    title: `${region.name}${page.page > 1 ? ` (Page ${page.page} of ${page.pageCount})` : ''} - ${options.siteName}`,
    description: `${plotCount(region.plotCount)} claimed in ${region.name} on ${options.siteName}.`,
    canonicalUrl: absolute(options.origin, path),
    ogType: 'website',
  };
}

// Control characters, and UTF-16 halves without their partner (what a stray %ED%A0%80 decodes to).
const NOT_IN_A_NAME = /[\p{Cc}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/**
 * Whether a /user/:name path could name anyone: claims trim the display name and keep it to
 * DISPLAY_NAME_MIN..DISPLAY_NAME_MAX characters, so anything else is answered as not found without
 * asking the plots service.
 */
export function isPossibleDisplayName(name: string): boolean {
  return name.length >= DISPLAY_NAME_MIN && name.length <= DISPLAY_NAME_MAX && name === name.trim() && !NOT_IN_A_NAME.test(name);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Plot ids are UUIDs; anything else cannot be a plot. */
export function isPossiblePlotId(id: string): boolean {
  return UUID.test(id);
}

/** The spec's not-found screen, server-rendered, kept out of search results. */
export function notFoundPageMeta(options: { siteName: string }): PageMeta {
  return {
    title: `Page Not Found - ${options.siteName}`,
    description: 'Did you forget to add the page to the router?',
    noIndex: true,
  };
}

/** The not-found screen's text for crawlers and for browsers without JavaScript (the app draws its own over it). */
export const NOT_FOUND_BODY: PageBody = {
  html:
    `<main><h1>404 Page Not Found</h1><p>Did you forget to add the page to the router?</p>` +
    `<p><a href="/">Back to the Atlas</a></p></main>`,
};
