// Share cards end to end: the real gateway in front of the real map, plots and moderation services. The page's
// og:image is an absolute URL of a 1200x630 PNG that shows the plot (its tier colour, its avatar); a changed plot
// gets a new card at a new address.
import { TIER_COLOR } from '@pixel-atlas/contracts/tier-catalog';
import { buyAndClaim, landSpots, type World } from '@pixel-atlas/test-stack/world';
import { eventually } from '@pixel-atlas/service-kit/testing';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_FRAME } from '../domain/render-share-card.ts';
import { startGatewayOverWorld, type GatewayOverWorld } from '../testing/gateway-over-world.ts';

const ORIGIN = 'https://atlas.example.com';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

let world: World;
let gateway: FastifyInstance;
let base: string;
let stack: GatewayOverWorld;

beforeAll(async () => {
  stack = await startGatewayOverWorld({ env: { PUBLIC_ORIGIN: ORIGIN } });
  ({ world, gateway, base } = stack);
});

afterAll(async () => {
  await stack?.close();
});

async function solidPng(r: number, g: number, b: number): Promise<string> {
  const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

function metaContent(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" content="([^"]*)">`).exec(html);
  return match?.[1]?.replaceAll('&#39;', "'").replaceAll('&amp;', '&');
}

async function pageOf(url: string): Promise<string> {
  const response = await fetch(`${base}${url}`, { headers: { 'user-agent': BROWSER } });
  expect(response.status).toBe(200);
  return response.text();
}

/** Fetches the page's og:image through the gateway (its absolute URL names the public origin, not this port). */
async function cardOf(pageHtml: string): Promise<{ url: string; png: Buffer; response: Response }> {
  const url = metaContent(pageHtml, 'og:image')!;
  expect(url.startsWith(`${ORIGIN}/share-card/`)).toBe(true);
  const { pathname, search } = new URL(url);
  const response = await fetch(`${base}${pathname}${search}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  return { url, png: Buffer.from(await response.arrayBuffer()), response };
}

async function pixelAt(png: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

function hexRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

async function renders(): Promise<number> {
  // The gateway serves /metrics on its operations port only: read its registry.
  const text = await gateway.metrics.getSingleMetricAsString('share_card_renders_total');
  return Number(/share_card_renders_total(?:\{[^}]*\})? (\d+)/.exec(text)?.[1] ?? NaN);
}

describe('share cards', () => {
  it('the plot page and the user page reference a valid 1200x630 PNG of the plot by absolute URL; a changed plot changes the card', async () => {
    const spot = landSpots(world, 2, 1)[0]!;
    const { response: claimed } = await buyAndClaim(
      world,
      { tier: 'prime', ...spot },
      { display_name: 'Card Sharp', avatar_url: await solidPng(20, 200, 90) },
    );
    expect(claimed.statusCode).toBe(201);
    const plot = claimed.json().plot as { id: string };
    const token = claimed.json().manage_token as string;

    const page = await pageOf(`/plot/${plot.id}`);
    expect(metaContent(page, 'og:image:width')).toBe('1200');
    expect(metaContent(page, 'og:image:height')).toBe('630');
    expect(metaContent(page, 'og:image:type')).toBe('image/png');
    expect(metaContent(page, 'twitter:card')).toBe('summary_large_image');
    expect(metaContent(page, 'twitter:image')).toBe(metaContent(page, 'og:image'));
    expect(metaContent(page, 'og:image:alt')).toBe(`Card Sharp's Prime Plot at (${spot.x}, ${spot.y}) on the Pixel Atlas map`);

    const first = await cardOf(page);
    expect(first.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // From the gateway's memory with a validator: a client holding the card is answered 304, without a render.
    const etag = first.response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const { pathname, search } = new URL(first.url);
    const held = await fetch(`${base}${pathname}${search}`, { headers: { 'if-none-match': etag } });
    expect(held.status).toBe(304);
    const meta = await sharp(first.png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1200, height: 630 });
    // Not blank: the picture varies a lot (terrain, frames, text).
    const stats = await sharp(first.png).stats();
    for (const channel of stats.channels.slice(0, 3)) expect(channel.stdev).toBeGreaterThan(20);
    // The avatar's frame in the plot's tier colour, and the avatar inside it.
    expect(await pixelAt(first.png, AVATAR_FRAME.x + 2, AVATAR_FRAME.y + 2)).toEqual(hexRgb(TIER_COLOR.prime.hex));
    // The avatar is stored as a lossy WebP: its colour comes back within a few levels of what was uploaded.
    const avatarCentre = await pixelAt(first.png, AVATAR_FRAME.x + AVATAR_FRAME.size / 2, AVATAR_FRAME.y + AVATAR_FRAME.size / 2);
    [20, 200, 90].forEach((level, channel) => expect(Math.abs(avatarCentre[channel]! - level)).toBeLessThanOrEqual(4));

    // The user page shows the same card.
    const userPage = await pageOf(`/user/${encodeURIComponent('Card Sharp')}`);
    expect(metaContent(userPage, 'og:image')).toBe(first.url);
    // Served again from the cache: one render for three requests.
    expect((await cardOf(userPage)).png.equals(first.png)).toBe(true);
    expect(await renders()).toBe(1);

    // The owner replaces the avatar: the page names a new card, and the card shows the new picture.
    const replaced = await fetch(`${base}/api/manage/${token}/avatar`, {
      method: 'PUT',
      headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', 'user-agent': BROWSER },
      body: JSON.stringify({ avatar_url: await solidPng(230, 40, 200) }),
    });
    expect(replaced.status).toBe(200);
    const changedPage = await eventually(async () => {
      const html = await pageOf(`/plot/${plot.id}`);
      return metaContent(html, 'og:image') !== first.url && html;
    });
    const second = await cardOf(changedPage);
    expect(second.png.equals(first.png)).toBe(false);
    expect(await pixelAt(second.png, AVATAR_FRAME.x + AVATAR_FRAME.size / 2, AVATAR_FRAME.y + AVATAR_FRAME.size / 2)).toEqual([
      230, 40, 200,
    ]);
    expect(await renders()).toBe(2);

    // An address with a stale version gets the current card, cached briefly only.
    const stale = await fetch(`${base}${new URL(first.url).pathname}${new URL(first.url).search}`);
    expect(stale.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Buffer.from(await stale.arrayBuffer()).equals(second.png)).toBe(true);

    // The map is cleared: every replica's cards are dropped by the event, and the same address shows open sea now.
    const cleared = await world.map!.inject({
      method: 'DELETE',
      url: '/api/admin/map-layout',
      headers: { 'x-internal-token': 'test-internal-token-0123456789', 'x-admin-user': 'warden' },
    });
    expect(cleared.statusCode).toBe(200);
    const redrawn = await eventually(async () => {
      const { png } = await cardOf(changedPage);
      return !png.equals(second.png) && png;
    });
    expect(await renders()).toBe(3);
    // Still the plot's card (its frame and avatar), over the sea the map service now reports.
    expect(await pixelAt(redrawn, AVATAR_FRAME.x + AVATAR_FRAME.size / 2, AVATAR_FRAME.y + AVATAR_FRAME.size / 2)).toEqual([230, 40, 200]);
  });

  it('answers 404 for unknown or malformed plots, without rendering', async () => {
    expect((await fetch(`${base}/share-card/00000000-0000-4000-8000-000000000000.png`)).status).toBe(404);
    expect((await fetch(`${base}/share-card/not-a-plot.png`)).status).toBe(404);
    expect((await fetch(`${base}/share-card/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    const body = await (await fetch(`${base}/share-card/nope.png`)).json();
    expect(body).toEqual({ error: { code: 'PLOT_NOT_FOUND', message: 'Plot not found' } });
  });
});
