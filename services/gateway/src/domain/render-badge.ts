/** The badge's size in CSS pixels: the embed snippet's `width` and `height`. */
export const BADGE_WIDTH = 200;
export const BADGE_HEIGHT = 40;

const TEXT_X = 38;
const TEXT_WIDTH = BADGE_WIDTH - TEXT_X - 10;
/** Generic monospace glyphs are about 0.6 em wide; the pixel font, when a reader has it, 1 em (then text is squeezed to fit). */
const GLYPH_EM = 0.6;

/** A map pin in the site's pixel style, 8×9 cells: '#' frame, 'o' fill, '.' the hole. */
const PIN = ['  ####  ', ' #oooo# ', '#oo..oo#', '#oo..oo#', '#oooooo#', ' #oooo# ', ' #oooo# ', '  #oo#  ', '   ##   '];
const PIN_CELL = 3;

/** XML 1.0's characters: tab, line breaks, and the rest of Unicode but C0 controls, lone surrogates and U+FFFE/F. */
function isXmlChar(codePoint: number): boolean {
  return (
    codePoint === 0x9 ||
    codePoint === 0xa ||
    codePoint === 0xd ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
    codePoint >= 0x10000
  );
}

/** User text as XML character data or an attribute value: it can never open a tag or end an attribute. */
export function escapeXml(text: string): string {
  // Code point by code point: a lone surrogate is one element here, and is dropped with the other non-characters.
  return Array.from(text)
    .filter((char) => isXmlChar(char.codePointAt(0)!))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function pinRects(): string {
  const rects: string[] = [];
  PIN.forEach((row, y) => {
    [...row].forEach((cell, x) => {
      const fill = cell === '#' ? '#1b1f3b' : cell === 'o' ? '#ef4444' : cell === '.' ? '#fff7d6' : null;
      if (fill)
        rects.push(`<rect x="${8 + x * PIN_CELL}" y="${5 + y * PIN_CELL}" width="${PIN_CELL}" height="${PIN_CELL}" fill="${fill}"/>`);
    });
  });
  return rects.join('');
}
const PIN_SVG = pinRects();

/**
 * A text line that fits the badge: a long name gets a smaller font (renderers without `textLength`, e.g. librsvg) and
 * `textLength` (browsers, whatever font they pick).
 */
function line(text: string, options: { y: number; size: number; fill: string; weight?: string }): string {
  const chars = [...text].length;
  const size = Math.max(6, Math.min(options.size, Math.floor((TEXT_WIDTH / (chars * GLYPH_EM)) * 10) / 10));
  const fit =
    chars * size * GLYPH_EM > TEXT_WIDTH || size < options.size ? ` textLength="${TEXT_WIDTH}" lengthAdjust="spacingAndGlyphs"` : '';
  const weight = options.weight ? ` font-weight="${options.weight}"` : '';
  return `<text x="${TEXT_X}" y="${options.y}" font-size="${size}" fill="${options.fill}"${weight}${fit}>${escapeXml(text)}</text>`;
}

/**
 * The embeddable badge: "Find me on <site>" and the plot's display name beside a pixel map pin, 200×40, in the site's
 * pixel style (hard 2 px frame and shadow, crisp edges). Self-contained (no external font or image: an `<img>` loads
 * none), and the display name is data, escaped.
 */
export function renderBadge(options: { displayName: string; siteName: string }): string {
  const heading = `Find me on ${options.siteName}`;
  const label = `${heading}: ${options.displayName}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${BADGE_WIDTH}" height="${BADGE_HEIGHT}" viewBox="0 0 ${BADGE_WIDTH} ${BADGE_HEIGHT}" ` +
    `role="img" aria-label="${escapeXml(label)}" shape-rendering="crispEdges">` +
    `<title>${escapeXml(label)}</title>` +
    `<rect x="4" y="4" width="${BADGE_WIDTH - 4}" height="${BADGE_HEIGHT - 4}" fill="#0b0d1f"/>` +
    `<rect x="1" y="1" width="${BADGE_WIDTH - 6}" height="${BADGE_HEIGHT - 6}" fill="#2a2f5b" stroke="#f7d154" stroke-width="2"/>` +
    PIN_SVG +
    `<g font-family="'Press Start 2P', ui-monospace, Menlo, Consolas, monospace">` +
    line(heading.toUpperCase(), { y: 14, size: 7, fill: '#f7d154' }) +
    line(options.displayName, { y: 29, size: 11, fill: '#ffffff', weight: 'bold' }) +
    `</g></svg>`
  );
}
