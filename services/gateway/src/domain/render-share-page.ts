import { DISPLAY_NAME_MAX, DISPLAY_NAME_MIN, type Plot } from '@pixel-atlas/contracts/plots';
import { TIER_SIZE, normalizeTier, tierPlotLabel } from '@pixel-atlas/contracts/tiers';
import { zoneName } from '@pixel-atlas/contracts/zones';
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
  /** Crawlable HTML shown until the SPA mounts (React replaces the contents of #root). */
  bodyHtml: string;
  /** Pages that must stay out of search results (the not-found page). */
  noIndex?: boolean;
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
export function renderShell(shell: ShellTemplate, meta: PageMeta, siteName: string): string {
  const tags = [
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    meta.noIndex ? `<meta name="robots" content="noindex">` : '',
    meta.canonicalUrl ? `<link rel="canonical" href="${escapeHtml(meta.canonicalUrl)}">` : '',
    `<meta property="og:type" content="profile">`,
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
    root: `<div id="root">${meta.bodyHtml}</div>`,
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
export function injectPageMeta(indexHtml: string, meta: PageMeta, siteName: string): string {
  return renderShell(compileShell(indexHtml), meta, siteName);
}

function absolute(origin: string, pathOrUrl: string): string {
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

/**
 * web/src/components/site-header.tsx as plain HTML, with its class names: the header and its menu work with JavaScript
 * off (links, and the menu a native disclosure), and the app's own header takes the same place when it mounts.
 */
function siteHeaderHtml(siteName: string): string {
  const navLink =
    'inline-flex min-h-11 items-center px-3 text-sm font-semibold underline-offset-4 hover:text-gold hover:underline text-ink';
  const claim =
    'inline-flex min-h-11 min-w-11 items-center justify-center gap-2 border-2 font-pixel text-center uppercase leading-normal ' +
    'border-black bg-gold text-ink-dark shadow-pixel hover:bg-[#f7d27a] px-3 py-2 text-[0.65rem]';
  const links = [
    ['/about', 'About'],
    ['/faq', 'FAQ'],
    ['/contact', 'Contact'],
  ];
  const claimLink = (extra: string) => `<a href="/#claim-tile" class="${claim} ${extra}">Claim Your Tile</a>`;
  const icon = (className: string, d: string) =>
    `<svg aria-hidden="true" width="20" height="20" viewBox="0 0 10 10" shape-rendering="crispEdges" fill="currentColor" class="${className}"><path d="${d}"/></svg>`;
  return (
    `<header class="fixed inset-x-0 top-0 z-40 border-b-2 border-border bg-night/95 backdrop-blur-sm">` +
    `<div class="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">` +
    `<a href="/" class="inline-flex min-h-11 items-center font-pixel text-xs text-gold sm:text-sm">${escapeHtml(siteName)}</a>` +
    `<nav aria-label="Main" class="hidden items-center gap-1 md:flex">` +
    links.map(([href, label]) => `<a href="${href}" class="${navLink}">${label}</a>`).join('') +
    claimLink('ml-3') +
    `</nav>` +
    `<details class="group md:hidden"><summary aria-label="Menu" class="grid size-11 cursor-pointer list-none place-items-center border-2 border-border bg-panel [&::-webkit-details-marker]:hidden">` +
    icon('group-open:hidden', 'M1 2h8v1.5H1zM1 4.25h8v1.5H1zM1 6.5h8V8H1z') +
    icon('hidden group-open:block', 'M1 1h2v1h1v1h2V2h1V1h2v2H8v1H7v2h1v1h1v2H7V8H6V7H4v1H3v1H1V7h1V6h1V4H2V3H1z') +
    `</summary><nav aria-label="Mobile" class="absolute inset-x-0 top-16 border-y-2 border-border bg-panel px-4 pb-4"><ul class="flex flex-col">` +
    links.map(([href, label]) => `<li><a href="${href}" class="${navLink}">${label}</a></li>`).join('') +
    `</ul>${claimLink('mt-2 w-full')}</nav></details>` +
    `</div></header>`
  );
}

/** web/src/components/app-layout.tsx's PageContainer with the plot page's width and first-screen frame. */
const PLOT_CONTAINER_CLASS = 'mx-auto w-full max-w-4xl px-4 pt-24 pb-16 md:pt-28 max-w-2xl min-h-dvh';
const PLOT_MAP_PREVIEW_BOX_CLASS = 'relative h-44 w-full overflow-hidden border-2 border-black bg-night shadow-pixel-sm sm:h-52 mt-4';

export function plotPageMeta(plot: Plot, options: { origin: string; siteName: string; linkRel: string }): PageMeta {
  const zone = zoneName(plot.zone);
  const tierLabel = tierPlotLabel(plot.tier);
  const description = plot.message || `A ${tierLabel} at (${plot.x}, ${plot.y}) in ${zone} on ${options.siteName}.`;
  const link = plot.link ? `<p><a href="${escapeHtml(plot.link)}" rel="${escapeHtml(options.linkRel)}">Visit Website</a></p>` : '';
  return {
    title: `${plot.display_name}'s Plot - ${options.siteName}`,
    description,
    canonicalUrl: absolute(options.origin, `/plot/${plot.id}`),
    image: shareCardImage(plot, options),
    // Laid out as the SPA's plot page (web/src/pages/plot-page.tsx: PageContainer, the min-h-dvh frame, the panel,
    // a 112 px avatar), with class names that page already uses so the web's CSS has them: the first paint sits
    // where the mounted page will, and the footer stays below the first screen throughout. Text elements keep no
    // attributes of their own; their wrappers carry the type styles they inherit.
    bodyHtml:
      siteHeaderHtml(options.siteName) +
      `<main id="main" class="flex-1"><div class="${PLOT_CONTAINER_CLASS}">` +
      `<div class="min-h-11"></div>` +
      `<article class="pixel-panel mt-4 p-6"><div class="flex flex-col items-center gap-5 text-center sm:flex-row sm:items-start sm:text-left">` +
      `<img src="${escapeHtml(plot.avatar_url)}" alt="${escapeHtml(plot.display_name)}" width="128" height="128" class="size-28 shrink-0">` +
      `<div class="grid min-w-0 gap-2">` +
      `<div class="text-base wrap-anywhere text-gold md:text-xl"><h1>${escapeHtml(plot.display_name)}'s Plot</h1></div>` +
      `<div class="text-sm text-ink-muted"><p>Coordinates (${plot.x}, ${plot.y})</p></div>` +
      `<div class="text-sm text-ink"><p>${escapeHtml(tierLabel)} in ${escapeHtml(zone)}${plot.region_name ? ` · ${escapeHtml(plot.region_name)}` : ''}</p></div>` +
      `</div></div>` +
      (plot.message ? `<div class="mt-6 text-lg wrap-anywhere text-ink"><p>${escapeHtml(plot.message)}</p></div>` : '') +
      `<div class="mt-8 grid gap-3 text-sm">` +
      link +
      `<p><a href="/user/${encodeURIComponent(plot.display_name)}">More from ${escapeHtml(plot.display_name)}</a> · <a href="/">Explore The Atlas</a></p>` +
      `</div></article>` +
      // The map preview's box below the profile (web/src/map/components/map-preview-box.ts, with mt-4). Without
      // JavaScript no map comes to fill it: the share card (the same neighbourhood, drawn by the server) does.
      `<div class="${PLOT_MAP_PREVIEW_BOX_CLASS}"><noscript><img src="${escapeHtml(shareCardPath(plot))}" ` +
      `alt="Map of ${escapeHtml(plot.display_name)}'s plot at (${plot.x}, ${plot.y}) and its neighbours" class="h-full w-full object-cover"></noscript></div>` +
      `</div></main>`,
  };
}

/** web/src/pages/user-page.tsx's container and card, with its class names (the web's CSS has them). */
const USER_CONTAINER_CLASS = 'mx-auto w-full max-w-4xl px-4 pt-24 pb-16 md:pt-28 max-w-6xl';

export function userPageMeta(username: string, plots: Plot[], options: { origin: string; siteName: string; linkRel: string }): PageMeta {
  const items = plots
    .map(
      (plot) =>
        `<li><article class="pixel-panel flex h-full flex-col p-5">` +
        `<div class="flex flex-wrap items-center justify-between gap-2 text-xs text-ink-muted"><span>Position (${plot.x}, ${plot.y})</span>` +
        `<span>${escapeHtml(tierPlotLabel(plot.tier))}</span></div>` +
        `<div class="mt-4 flex items-center gap-3"><img src="${escapeHtml(plot.avatar_url)}" alt="" width="56" height="56" class="size-14 shrink-0">` +
        `<h2 class="min-w-0 font-sans text-lg font-semibold wrap-anywhere text-ink"><a href="/plot/${plot.id}">${escapeHtml(plot.display_name)}</a></h2></div>` +
        (plot.message ? `<p class="mt-3 line-clamp-3 wrap-anywhere text-sm text-ink-muted">${escapeHtml(plot.message)}</p>` : '') +
        (plot.link
          ? `<p class="mt-3 text-sm"><a href="${escapeHtml(plot.link)}" rel="${escapeHtml(options.linkRel)}" class="text-sky underline">Visit</a></p>`
          : '') +
        `</article></li>`,
    )
    .join('');
  const count = `${plots.length} ${plots.length === 1 ? 'plot' : 'plots'} claimed`;
  // The card of their biggest plot (the oldest among equals): what they would most likely show.
  const showcase = [...plots].sort(
    (a, b) => TIER_SIZE[normalizeTier(b.tier)] - TIER_SIZE[normalizeTier(a.tier)] || a.created_at.localeCompare(b.created_at),
  )[0];
  return {
    title: `${username}'s Atlas - ${options.siteName}`,
    image: showcase ? shareCardImage(showcase, options) : undefined,
    description: `${username} has claimed ${plots.length} plot${plots.length === 1 ? '' : 's'} on ${options.siteName}.`,
    canonicalUrl: absolute(options.origin, `/user/${encodeURIComponent(username)}`),
    bodyHtml:
      siteHeaderHtml(options.siteName) +
      `<main id="main" class="flex-1"><div class="${USER_CONTAINER_CLASS}">` +
      `<p><a href="/" class="text-sky underline">Back to Atlas</a></p>` +
      `<header class="mt-4 mb-8"><div class="text-base wrap-anywhere text-gold md:text-2xl"><h1>${escapeHtml(username)}'s Atlas</h1></div>` +
      `<p class="mt-3 text-ink-muted">${count}</p></header>` +
      `<ul class="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">${items}</ul>` +
      `</div></main>`,
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
    bodyHtml:
      `<main><h1>404 Page Not Found</h1><p>Did you forget to add the page to the router?</p>` +
      `<p><a href="/">Back to the Atlas</a></p></main>`,
  };
}

export const STATIC_PAGES = ['/', '/about', '/faq', '/contact', '/terms', '/privacy'];

export function renderSitemap(origin: string, plots: Plot[]): string {
  const users = [...new Set(plots.map((p) => p.display_name))];
  const urls: Array<{ loc: string; lastmod?: string }> = [
    ...STATIC_PAGES.map((p) => ({ loc: absolute(origin, p) })),
    // An owner's edit is news for crawlers: the page's date is the last change.
    ...plots.map((p) => ({ loc: absolute(origin, `/plot/${p.id}`), lastmod: (p.updated_at ?? p.created_at).slice(0, 10) })),
    ...users.map((u) => ({ loc: absolute(origin, `/user/${encodeURIComponent(u)}`) })),
  ];
  const entries = urls
    .map((u) => `  <url><loc>${escapeHtml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`;
}

export function renderRobots(origin: string): string {
  return `User-agent: *\nDisallow: /admin\nDisallow: /claim\nDisallow: /api/\nAllow: /api/plots/\n\nSitemap: ${absolute(origin, '/sitemap.xml')}\n`;
}
