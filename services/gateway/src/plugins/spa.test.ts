// The SPA as the web build ships it (web/dist: `npm test` builds it first; alone, run
// `npm run build -w @pixel-atlas/web`): precompressed assets, caching, and the prerendered first screen.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { PLOT_CHANGE_POLICY, SALES_FINAL } from '@pixel-atlas/contracts/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spaPlugin } from './spa.ts';

const distDir = path.resolve(import.meta.dirname, '../../../../web/dist');
let app: FastifyInstance;
let entryScript: string;

beforeAll(async () => {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`no web build at ${distDir}: run \`npm run build -w @pixel-atlas/web\` first`);
  }
  const index = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/.exec(index);
  if (!entry?.[1]) throw new Error('web/dist/index.html has no module entry script');
  entryScript = entry[1];
  app = Fastify();
  await app.register(spaPlugin, { distDir });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
});

const builtFile = (urlPath: string) => readFileSync(path.join(distDir, urlPath));
const get = (url: string, acceptEncoding?: string) =>
  app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('hashed assets', () => {
  it('go out brotli-compressed when the browser accepts br, cached for a year as immutable', async () => {
    const response = await get(entryScript, 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).equals(builtFile(entryScript))).toBe(true);
  });

  it('go out gzip-compressed when the browser accepts only gzip', async () => {
    const response = await get(entryScript, 'gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toContain('immutable');
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(gunzipSync(response.rawPayload).equals(builtFile(entryScript))).toBe(true);
  });

  it('go out as they are to a client that accepts no encoding', async () => {
    const response = await get(entryScript);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.equals(builtFile(entryScript))).toBe(true);
  });

  it('come with their source maps', async () => {
    const response = await get(`${entryScript}.map`, 'br');
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(brotliDecompressSync(response.rawPayload).toString('utf8'))).toMatchObject({ version: 3 });
  });

  it('are split by screen: the admin, claim, legal, contact and demo screens are chunks of their own', () => {
    const chunks = readdirSync(path.join(distDir, 'assets')).filter((name) => name.endsWith('.js'));
    for (const screen of ['admin-page', 'claim-page', 'terms-page', 'privacy-page', 'contact-page', 'demo-page']) {
      expect(
        chunks.some((name) => name.startsWith(`${screen}-`)),
        screen,
      ).toBe(true);
    }
  });
});

describe('the prerendered first screen', () => {
  it('index.html (/) carries the header, the strip over the map and the claim section before any script runs', async () => {
    const response = await get('/', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = brotliDecompressSync(response.rawPayload).toString('utf8');
    const shell = html.slice(html.indexOf('<div id="app-shell" data-path="/">'));
    expect(shell.length).toBeLessThan(html.length); // the browser hydrates the shell rendered for this path
    // The gateway's plot and user pages put their own body into the root, which must stay empty here.
    expect(html).toContain('<div id="root"></div>');
    expect(shell).toMatch(/<header[^>]*>.*>Pixel Atlas<\/a>.*Claim Your Tile.*<\/header>/s);
    expect(shell).toContain('Loading the atlas…');
    expect(shell).toMatch(/<section id="claim-tile"[^>]*>.*Claim Your Place in <!-- -->Pixel Atlas<\/h2>/s);
    for (const tier of ['Basic Plot', 'Featured Plot', 'Prime Plot', 'Premium Plot']) expect(shell).toContain(tier);
    expect(shell).toContain(`${SALES_FINAL} ${PLOT_CHANGE_POLICY}`);
    // No render-blocking stylesheet request: the CSS is inline, the pixel font preloaded. The one stylesheet link is
    // disabled (never fetched): it tells Vite's loader, when the boot imports the app, that the CSS is on the page.
    expect(html).not.toMatch(/<link rel="stylesheet"(?![^>]*\bdisabled\b)[^>]*>/);
    expect(html).toMatch(/<link rel="preload" href="\/assets\/press-start-2p-[^"]+\.woff2" as="font" type="font\/woff2" crossorigin>/);
  });

  it('other screens get the same header without the home page content', async () => {
    for (const [url, status] of [
      ['/contact', 200],
      ['/plot/6f1c0b7e-2a8c-4f6e-9a51-0d3f4b2e9c11', 200],
      ['/no/such/page', 404],
    ] as const) {
      const response = await get(url, 'gzip');
      expect(response.statusCode, url).toBe(status);
      expect(response.headers['content-encoding'], url).toBe('gzip');
      expect(response.headers['cache-control'], url).toBe('no-cache');
      const html = gunzipSync(response.rawPayload).toString('utf8');
      expect(html, url).toContain('<div id="root"></div>');
      expect(html, url).toMatch(/<header[^>]*>.*Claim Your Tile.*<\/header>/s);
      expect(html, url).not.toContain('id="claim-tile"');
      expect(html, url).not.toContain('Loading the atlas…');
    }
  });
});

describe('screens without data of their own', () => {
  it.each([
    ['/faq', 'Frequently Asked Questions'],
    ['/about', 'About'],
    ['/terms', 'Terms'],
    ['/privacy', 'Privacy'],
  ])('%s comes prerendered whole: its own heading in the HTML before any script, marked for hydration there', async (url, heading) => {
    const response = await get(url, 'br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = brotliDecompressSync(response.rawPayload).toString('utf8');
    expect(html).toContain(`<div id="app-shell" data-path="${url}">`);
    expect(html).toMatch(new RegExp(`<h1[^>]*>[^<]*${heading}`));
    expect(html).toMatch(/<header[^>]*>.*Claim Your Tile.*<\/header>/s);
    expect(html).not.toContain('id="claim-tile"');
  });
});

describe('the route table', () => {
  it.each([
    '/',
    '/claim',
    '/claim?session_id=cs_test_1',
    '/plot/6f1c0b7e-2a8c-4f6e-9a51-0d3f4b2e9c11',
    '/user/Ada%20Pixel',
    '/about',
    '/faq/',
    '/FAQ',
    '/contact',
    '/terms',
    '/privacy',
    '/demo',
    '/admin',
  ])('%s is a screen of the app: 200', async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });

  it.each(['/no-such-page', '/plots', '/admin/extra/deep', '/claim/x', '/user', '/plot/a/b', '/about-us?x=1'])(
    "%s is outside it: HTTP 404 with the app's shell (the SPA shows its 404 screen), never cached",
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root"></div>');
      expect((await app.inject({ method: 'HEAD', url })).statusCode).toBe(404);
    },
  );

  it('keeps a JSON 404 for unknown API paths and a plain one for missing files', async () => {
    const api = await get('/api/nope');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const asset = await get('/assets/missing-123.js');
    expect(asset.statusCode).toBe(404);
    expect(asset.headers['content-type']).toMatch(/text\/plain/);
  });
});
