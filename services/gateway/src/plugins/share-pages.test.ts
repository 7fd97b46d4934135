import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { escapeHtml } from '../domain/render-share-page.ts';
import { loadEnv } from '../env.ts';

// Every special replacement pattern of String.prototype.replace.
const PATTERNS = ['$&', '$`', "$'", '$$', '$1', '$<n>'];
// The real SPA shell when built (its size is what an attack multiplies), else one shaped like it.
const SHELL =
  '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <meta name="description" content="generic" />\n' +
  '    <title>Pixel Atlas</title>\n  </head>\n  <body>\n    <div id="root"></div>\n    <script type="module" src="/assets/index-abc.js"></script>\n' +
  `    <!-- ${'padding so each $` copy of the page prefix is large '.repeat(40)} -->\n  </body>\n</html>\n`;
const SLACK = 2048;

const plotNamed = (id: string, display_name: string, message: string): Plot => ({
  id,
  zone: 'creator',
  tier: 'featured',
  x: 10,
  y: 11,
  display_name,
  message,
  link: 'https://example.com/',
  avatar_url: `/api/plots/${id}/avatar`,
  created_at: '2026-11-22T10:00:00.000Z',
  flagged: false,
  reviewed: false,
  region_name: 'Creator Coast',
});

const NORMAL = plotNamed('00000000-0000-4000-8000-000000000001', 'Plain Name', 'A plain message of some length here');
const hostile = PATTERNS.map((p, i) =>
  plotNamed(`00000000-0000-4000-8000-00000000010${i}`, `N${p.repeat(6)}`.slice(0, 30), `M${p.repeat(30)}`.slice(0, 140)),
);
/** The plot every other user's page lists. */
const [listed] = hostile;
assert(listed, 'one plot per pattern');

const bed = testBedPerFile();
let webDir: string;
let plotsFake: FastifyInstance;
let gateway: FastifyInstance;
let plotsCalls = 0;

beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-share-'));
  await writeFile(path.join(webDir, 'index.html'), SHELL);
  const byId = new Map([NORMAL, ...hostile].map((p) => [p.id, p]));
  plotsFake = Fastify();
  plotsFake.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/api/')) plotsCalls++; // not the pool's /readyz checks
  });
  plotsFake.get('/api/plots/:id', async (request, reply) => byId.get((request.params as { id: string }).id) ?? reply.status(404).send({}));
  plotsFake.get('/api/plots', async () => [NORMAL, ...hostile]);
  // Answers any name with plots whose texts carry the patterns too.
  plotsFake.get('/api/users/:name/plots', async (request) => {
    const name = (request.params as { name: string }).name;
    return { username: name, plots: name === NORMAL.display_name ? [NORMAL] : [listed] };
  });
  await plotsFake.listen({ port: 0, host: '127.0.0.1' });
  const plotsUrl = `http://127.0.0.1:${(plotsFake.server.address() as { port: number }).port}`;
  gateway = await buildApp(
    loadEnv({
      ...bed.env,
      CONTACT_URL: 'http://127.0.0.1:9',
      PLOTS_URL: plotsUrl,
      WEB_DIST_DIR: webDir,
      RATE_LIMIT_PER_MINUTE: '40',
    }),
  );
  await gateway.ready();
});

afterAll(async () => {
  await gateway?.close();
  await plotsFake?.close();
  await rm(webDir, { recursive: true, force: true });
});

// Each request from its own address, so the rate limit stays out of the way except where tested.
let nextAddress = 1;
const get = (url: string, remoteAddress = `10.1.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`) =>
  gateway.inject({ url, remoteAddress });

describe('server-rendered pages with $ patterns in user text', () => {
  it('keep plot names and messages literal on /plot/:id, within a small constant of a normal page', async () => {
    const normal = await get(`/plot/${NORMAL.id}`);
    expect(normal.statusCode).toBe(200);
    for (const plot of hostile) {
      const response = await get(`/plot/${plot.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.body.length, plot.display_name).toBeLessThan(normal.body.length + SLACK);
      expect(response.body).toContain(`<title>${escapeHtml(plot.display_name)}&#39;s Plot - Pixel Atlas</title>`);
      expect(response.body).toContain(`<meta name="description" content="${escapeHtml(plot.message)}">`);
      expect(response.body).toContain(`<h1>${escapeHtml(plot.display_name)}'s Plot</h1>`);
      expect(response.body).toContain(`<p>${escapeHtml(plot.message)}</p>`);
    }
  });

  it('keep names in the URL of /user/:name literal, within a small constant of a normal page', async () => {
    const normal = await get(`/user/${encodeURIComponent(NORMAL.display_name)}`);
    expect(normal.statusCode).toBe(200);
    const names = [...PATTERNS.map((p) => `u${p.repeat(12)}`.slice(0, 30)), '$`'.repeat(12), "$'".repeat(15)];
    for (const name of names) {
      const response = await get(`/user/${encodeURIComponent(name)}`);
      expect(response.statusCode, name).toBe(200);
      expect(response.body.length, name).toBeLessThan(normal.body.length + SLACK);
      expect(response.body).toContain(`<title>${escapeHtml(name)}&#39;s Atlas - Pixel Atlas</title>`);
      expect(response.body).toContain(`<h1>${escapeHtml(name)}'s Atlas</h1>`);
      // The listed plot's message carries patterns too.
      expect(response.body).toContain(escapeHtml(listed.message));
    }
  });

  it('answers names outside the claim rules with the not-found page and a 404, without asking the plots service', async () => {
    const before = plotsCalls;
    for (const name of ['x', 'y'.repeat(31), ' padded ', 'tab\tname', '$`'.repeat(40)]) {
      const response = await get(`/user/${encodeURIComponent(name)}`);
      expect(response.statusCode, name).toBe(404);
      expect(response.body).toContain('<h1>404 Page Not Found</h1>');
      expect(response.body).toContain('Did you forget to add the page to the router?');
      expect(response.body).toContain('<meta name="robots" content="noindex">');
      expect(response.body.length).toBeLessThan(SHELL.length + SLACK);
    }
    expect((await get('/plot/not-a-uuid')).statusCode).toBe(404);
    expect(plotsCalls).toBe(before);
  });

  it('rate-limits /plot/:id, /user/:name and sitemap.xml per client like the API', async () => {
    for (const url of [`/plot/${NORMAL.id}`, '/user/Plain%20Name', '/sitemap.xml']) {
      const address = `10.9.9.${nextAddress++ % 250}`;
      const statuses: number[] = [];
      for (let i = 0; i < 41; i++) statuses.push((await get(url, address)).statusCode);
      expect(
        statuses.slice(0, 40).every((s) => s === 200),
        url,
      ).toBe(true);
      const refused = await get(url, address);
      expect(refused.statusCode, url).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      // Another client is unaffected.
      expect((await get(url)).statusCode).toBe(200);
    }
  });
});

it('uses a shell shaped like the built one', async () => {
  const built = await readFile(path.resolve(import.meta.dirname, '../../../../web/index.html'), 'utf8').catch(() => null);
  if (built)
    for (const marker of ['<title>', '<meta name="description"', '</head>', '<div id="root"></div>']) expect(SHELL).toContain(marker);
});
