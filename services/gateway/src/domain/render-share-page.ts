import type { Plot } from '@pixel-atlas/contracts/plots';
import { tierPlotLabel } from '@pixel-atlas/contracts/tiers';
import { zoneName } from '@pixel-atlas/contracts/zones';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface PageMeta {
  title: string;
  description: string;
  canonicalUrl: string;
  imageUrl?: string;
  /** Crawlable HTML shown until the SPA mounts (React replaces the contents of #root). */
  bodyHtml: string;
}

/** Puts the page's title, description, Open Graph / Twitter tags, canonical URL and body into the SPA shell. */
export function injectPageMeta(indexHtml: string, meta: PageMeta, siteName: string): string {
  const tags = [
    `<meta name="description" content="${escapeHtml(meta.description)}">`,
    `<link rel="canonical" href="${escapeHtml(meta.canonicalUrl)}">`,
    `<meta property="og:type" content="profile">`,
    `<meta property="og:site_name" content="${escapeHtml(siteName)}">`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}">`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}">`,
    `<meta property="og:url" content="${escapeHtml(meta.canonicalUrl)}">`,
    meta.imageUrl ? `<meta property="og:image" content="${escapeHtml(meta.imageUrl)}">` : '',
    `<meta name="twitter:card" content="summary">`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}">`,
    meta.imageUrl ? `<meta name="twitter:image" content="${escapeHtml(meta.imageUrl)}">` : '',
  ].filter(Boolean);
  let html = indexHtml.replace(/<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(meta.title)}</title>`);
  // Drop the shell's generic description so crawlers see exactly one.
  html = html.replace(/<meta\s+name="description"[^>]*>\s*/i, '');
  html = html.replace('</head>', `    ${tags.join('\n    ')}\n  </head>`);
  return html.replace(/<div id="root"><\/div>/, `<div id="root">${meta.bodyHtml}</div>`);
}

function absolute(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, origin).toString();
}

export function plotPageMeta(plot: Plot, options: { origin: string; siteName: string; linkRel: string }): PageMeta {
  const zone = zoneName(plot.zone);
  const tierLabel = tierPlotLabel(plot.tier);
  const description = plot.message || `A ${tierLabel} at (${plot.x}, ${plot.y}) in ${zone} on ${options.siteName}.`;
  const link = plot.link
    ? `<p><a href="${escapeHtml(plot.link)}" rel="${escapeHtml(options.linkRel)}">Visit Website</a></p>`
    : '';
  return {
    title: `${plot.display_name}'s Plot - ${options.siteName}`,
    description,
    canonicalUrl: absolute(options.origin, `/plot/${plot.id}`),
    imageUrl: absolute(options.origin, plot.avatar_url),
    bodyHtml:
      `<main><h1>${escapeHtml(plot.display_name)}'s Plot</h1>` +
      `<p>Coordinates (${plot.x}, ${plot.y})</p>` +
      `<p>${escapeHtml(tierLabel)} in ${escapeHtml(zone)}${plot.region_name ? ` · ${escapeHtml(plot.region_name)}` : ''}</p>` +
      `<img src="${escapeHtml(plot.avatar_url)}" alt="${escapeHtml(plot.display_name)}" width="128" height="128">` +
      (plot.message ? `<p>${escapeHtml(plot.message)}</p>` : '') +
      link +
      `<p><a href="/user/${encodeURIComponent(plot.display_name)}">More from ${escapeHtml(plot.display_name)}</a> · <a href="/">Explore The Atlas</a></p></main>`,
  };
}

export function userPageMeta(username: string, plots: Plot[], options: { origin: string; siteName: string; linkRel: string }): PageMeta {
  const items = plots
    .map(
      (plot) =>
        `<li><a href="/plot/${plot.id}">${escapeHtml(plot.display_name)} at (${plot.x}, ${plot.y})</a>` +
        (plot.message ? ` — ${escapeHtml(plot.message)}` : '') +
        (plot.link ? ` <a href="${escapeHtml(plot.link)}" rel="${escapeHtml(options.linkRel)}">Visit</a>` : '') +
        `</li>`,
    )
    .join('');
  return {
    title: `${username}'s Atlas - ${options.siteName}`,
    description: `${username} has claimed ${plots.length} plot${plots.length === 1 ? '' : 's'} on ${options.siteName}.`,
    canonicalUrl: absolute(options.origin, `/user/${encodeURIComponent(username)}`),
    bodyHtml: `<main><h1>${escapeHtml(username)}'s Atlas</h1><p>${plots.length} plots claimed</p><ul>${items}</ul><p><a href="/">Back to Atlas</a></p></main>`,
  };
}

export const STATIC_PAGES = ['/', '/about', '/faq', '/contact', '/terms', '/privacy'];

export function renderSitemap(origin: string, plots: Plot[]): string {
  const users = [...new Set(plots.map((p) => p.display_name))];
  const urls = [
    ...STATIC_PAGES.map((p) => ({ loc: absolute(origin, p) })),
    ...plots.map((p) => ({ loc: absolute(origin, `/plot/${p.id}`), lastmod: p.created_at.slice(0, 10) })),
    ...users.map((u) => ({ loc: absolute(origin, `/user/${encodeURIComponent(u)}`) })),
  ];
  const entries = urls
    .map((u) => `  <url><loc>${escapeHtml(u.loc)}</loc>${'lastmod' in u && u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries}\n</urlset>\n`;
}

export function renderRobots(origin: string): string {
  return `User-agent: *\nDisallow: /admin\nDisallow: /claim\nDisallow: /api/\nAllow: /api/plots/\n\nSitemap: ${absolute(origin, '/sitemap.xml')}\n`;
}
