// The embeddable badge through the real gateway in front of the real plots and moderation services.
import http from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { buyAndClaim, decide, flagPlot, type World } from '@pixel-atlas/test-stack/world';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayOverWorld, type GatewayOverWorld } from '../testing/gateway-over-world.ts';
import { BADGE_CACHE_CONTROL } from './badges.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

let stack: GatewayOverWorld;
let world: World;
let nextSpot: () => { x: number; y: number };

beforeAll(async () => {
  stack = await startGatewayOverWorld();
  world = stack.world;
  nextSpot = spotSupply(world, 1, 6);
});

afterAll(async () => {
  await stack?.close();
});

async function claimedPlot(displayName = 'Ada Lovelace'): Promise<string> {
  const { response } = await buyAndClaim(world, { tier: 'basic', ...nextSpot() }, { display_name: displayName });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().plot.id as string;
}

/** One GET with the bytes as sent (fetch would decode them). */
function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(`${stack.base}${path}`, { headers: { 'user-agent': BROWSER, ...headers } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('GET /badge/:id.svg', () => {
  it('is the plot’s SVG badge, compressed, cacheable by a CDN, and 304 to a browser that holds it', async () => {
    const plotId = await claimedPlot('Grace <Hopper> & Co');
    const plain = await get(`/badge/${plotId}.svg`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(plain.headers['cache-control']).toBe(BADGE_CACHE_CONTROL);
    expect(plain.headers.vary).toContain('accept-encoding');
    const svg = plain.body.toString();
    expect(svg).toMatch(/^<svg [^>]*width="200" height="40"/);
    expect(svg).toContain('>Grace &lt;Hopper&gt; &amp; Co</text>');
    expect(svg).not.toContain('<Hopper>');

    const br = await get(`/badge/${plotId.toUpperCase()}.svg`, { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(svg);

    const again = await get(`/badge/${plotId}.svg`, { 'if-none-match': String(plain.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body).toHaveLength(0);
  });

  it('is 404 for an unknown plot, a malformed name, a hidden plot, and a plot once it is removed', async () => {
    expect((await get('/badge/00000000-0000-4000-8000-000000000000.svg')).status).toBe(404);
    expect((await get('/badge/not-a-plot.svg')).status).toBe(404);
    const hidden = await claimedPlot();
    await world.db.query('UPDATE plots.plots SET visible = false WHERE id = $1', [hidden]);
    expect((await get(`/badge/${hidden}.svg`)).status).toBe(404);

    const removed = await claimedPlot();
    expect((await get(`/badge/${removed}.svg`)).status).toBe(200);
    // A visitor's flag puts it in the review queue (moderation hears it as an event); an admin rejects it there.
    expect((await flagPlot(world, removed, { reason: 'spam' })).statusCode).toBeLessThan(300);
    await eventually(async () => (await decide(world, 'reject', removed)).statusCode === 200);
    // plots removes it on moderation's event and says so; every replica then rebuilds the badge.
    await eventually(async () => (await get(`/badge/${removed}.svg`)).status === 404);
  });
});
