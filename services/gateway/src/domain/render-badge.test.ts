import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BADGE_HEIGHT, BADGE_WIDTH, renderBadge } from './render-badge.ts';

/** Draws the SVG with librsvg (through sharp), which refuses anything that is not well-formed XML. */
async function draw(svg: string) {
  const { data, info } = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, pixels: data };
}

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => unescape(m[1]!));
const tags = (svg: string) => [...svg.matchAll(/<([a-zA-Z]+)/g)].map((m) => m[1]).sort();

describe('renderBadge', () => {
  it('is a well-formed SVG of the embed size naming the site and the plot', async () => {
    const svg = renderBadge({ displayName: 'Ada Lovelace', siteName: 'Pixel Atlas' });
    const drawn = await draw(svg);
    expect([drawn.width, drawn.height]).toEqual([BADGE_WIDTH, BADGE_HEIGHT]);
    expect(texts(svg)).toEqual(['FIND ME ON PIXEL ATLAS', 'Ada Lovelace']);
    expect(svg).toContain('<title>Find me on Pixel Atlas: Ada Lovelace</title>');
  });

  it('keeps a hostile display name as text: no element, attribute or entity of its own, invalid XML characters dropped', async () => {
    const name = `<script>alert(1)</script>"' onload="x" &amp; ]]><!--\u0000\u0008`;
    const svg = renderBadge({ displayName: name, siteName: 'Pixel & <Atlas>' });
    await draw(svg);
    expect(tags(svg)).toEqual(tags(renderBadge({ displayName: 'x', siteName: 'y' })));
    expect(texts(svg)).toEqual(['FIND ME ON PIXEL & <ATLAS>', name.split('\u0000').join('').split('\u0008').join('')]);
    expect(svg).not.toMatch(/ onload="/);
  });

  it('squeezes a long name into the badge instead of letting it run off the edge', () => {
    const svg = renderBadge({ displayName: 'W'.repeat(30), siteName: 'Pixel Atlas' });
    const [heading, name] = [...svg.matchAll(/<text([^>]*)>/g)].map((m) => m[1]!);
    expect(Number(/textLength="(\d+)"/.exec(name!)?.[1])).toBeLessThanOrEqual(BADGE_WIDTH);
    expect(heading).not.toContain('textLength');
  });
});
