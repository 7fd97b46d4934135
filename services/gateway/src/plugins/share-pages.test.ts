import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { eventually } from '@pixel-atlas/service-kit/testing';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { escapeHtml } from '../domain/render-share-page.ts';
import { loadEnv } from '../env.ts';

/** jsdom (the web tests' DOM; no type declarations installed): parses the pages and sitemaps as a browser would. */
interface ParsedDocument {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): ArrayLike<unknown>;
  getElementsByTagName(name: string): ArrayLike<ParsedElement> & Iterable<ParsedElement>;
}
interface ParsedElement {
  textContent: string | null;
  getElementsByTagName(name: string): ArrayLike<ParsedElement>;
}
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string) => {
    window: { document: ParsedDocument; DOMParser: new () => { parseFromString(text: string, type: string): ParsedDocument } };
  };
};

// Every special replacement pattern of String.prototype.replace.
const PATTERNS = ['$&', '$`', "$'", '$$', '$1', '$<n>'];
const ORIGIN = 'https://atlas.example.com';
// Shaped like the built shell: the app's module script in the head, the home screen's prerendered shell after #root.
const SHELL =
  '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <meta name="description" content="generic" />\n' +
  '    <title>Pixel Atlas</title>\n    <script type="module" crossorigin src="/assets/index-abc.js"></script>\n  </head>\n  <body>\n' +
  '    <div id="root"></div>\n    <div id="app-shell" data-path="/"><main><h1>Own a plot</h1></main></div>\n' +
  `    <!-- ${'padding so each $` copy of the page prefix is large '.repeat(40)} -->\n  </body>\n</html>\n`;
const SLACK = 4096;

/**
 * A stand-in for web/dist-server/entry-server.js with its interface: it names the API paths of a page and renders
 * what it was given. Its state is raw JSON (a '<' left in): the gateway must keep it data all the same.
 */
const ENTRY_SERVER = `
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
export function pageQueries(pathname, search) {
  let m;
  if ((m = /^\\/plot\\/([^/]+)$/.exec(pathname))) return [
    { queryKey: ['plots', m[1]], path: '/api/plots/' + m[1] },
    { queryKey: ['plots', m[1], 'neighbours'], path: '/api/plots/' + m[1] + '/neighbours' },
  ];
  if ((m = /^\\/user\\/([^/]+)$/.exec(pathname))) return [{ queryKey: ['users', decodeURIComponent(m[1])], path: '/api/users/' + m[1] + '/plots' }];
  if (pathname === '/regions') return [{ queryKey: ['regions'], path: '/api/regions' }];
  if ((m = /^\\/regions\\/([^/]+)$/.exec(pathname))) {
    const page = Number(new URLSearchParams(search).get('page') ?? 1);
    return [{ queryKey: ['regions', m[1], page], path: '/api/regions/' + m[1] + '?page=' + page }];
  }
  return null;
}
export async function renderPage(url, data) {
  globalThis.renders = (globalThis.renders ?? 0) + 1;
  const [own, ...others] = data.queries;
  if (own.error) return { html: '<main><h1>Not here</h1></main>', state: '{}', status: 404 };
  const plot = own.data;
  const html = plot.display_name !== undefined
    ? '<main><h1>' + esc(plot.display_name) + '&#39;s Plot</h1><p>' + esc(plot.message) + '</p>' +
      others.flatMap((q) => q.data.plots.map((n) => '<a href="/plot/' + n.id + '">' + esc(n.display_name) + '</a>')).join('') + '</main>'
    : '<main><h1>' + esc(url) + '</h1></main>';
  return { html, state: JSON.stringify({ queries: data.queries }), status: 200 };
}
`;

const plotNamed = (id: string, display_name: string, message: string, updated_at: string | null = null): Plot => ({
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
  updated_at,
  flagged: false,
  reviewed: false,
  region_name: 'Creator Coast',
});

/** A name nobody has claimed under. */
const NOBODY = 'Buy cheap pills now';
const NORMAL = plotNamed('00000000-0000-4000-8000-000000000001', 'Plain Name', 'A plain message of some length here');
const SCRIPTED = plotNamed('00000000-0000-4000-8000-000000000002', '</script><b>x', 'ends </script><script>alert(1)</script> <!--');
const hostile = PATTERNS.map((p, i) =>
  plotNamed(`00000000-0000-4000-8000-00000000010${i}`, `N${p.repeat(6)}`.slice(0, 30), `M${p.repeat(30)}`.slice(0, 140)),
);
const [listed] = hostile;
assert(listed, 'one plot per pattern');

const bed = testBedPerFile();
let operator: NatsConnection;
let root: string;
let plotsFake: FastifyInstance;
let gateway: FastifyInstance;
/** Requests that reached the plots service, by path (not the pool's /readyz checks). */
const calls = new Map<string, number>();
const callsTo = (url: string) => calls.get(url) ?? 0;
const views: Array<{ plotId: string; kind: string }> = [];
const byId = new Map([NORMAL, SCRIPTED, ...hostile].map((p) => [p.id, p]));
/** Delays every plot answer while set: lets a crowd arrive while one build is under way. */
let plotDelay: Promise<void> | null = null;

beforeAll(async () => {
  operator = await connect(bed.stream.connectOptions());
  root = await mkdtemp(path.join(os.tmpdir(), 'pa-share-'));
  await mkdir(path.join(root, 'dist'));
  await mkdir(path.join(root, 'dist-server'));
  await writeFile(path.join(root, 'dist', 'index.html'), SHELL);
  await writeFile(path.join(root, 'dist-server', 'entry-server.js'), ENTRY_SERVER);
  plotsFake = Fastify();
  plotsFake.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/api/')) calls.set(request.url, callsTo(request.url) + 1);
  });
  plotsFake.get('/readyz', async () => ({ status: 'ready' }));
  plotsFake.get('/api/plots/:id', async (request, reply) => {
    await plotDelay;
    return byId.get((request.params as { id: string }).id) ?? reply.status(404).send({ error: { code: 'PLOT_NOT_FOUND' } });
  });
  plotsFake.get('/api/plots/:id/neighbours', async (request, reply) =>
    byId.has((request.params as { id: string }).id) ? { plots: [NORMAL] } : reply.status(404).send({}),
  );
  plotsFake.get('/api/plots', async () => [...byId.values()]);
  plotsFake.get('/api/regions', async () => ({
    regions: [{ slug: 'creator-coast', name: 'Creator Coast', plotCount: byId.size, lastModified: '2026-11-23T10:00:00.000Z' }],
  }));
  plotsFake.get('/api/regions/:slug', async (request, reply) => {
    const page = Number((request.query as { page?: string }).page ?? 1);
    if ((request.params as { slug: string }).slug !== 'creator-coast' || page > 1) return reply.status(404).send({});
    return {
      region: { slug: 'creator-coast', name: 'Creator Coast', plotCount: byId.size, lastModified: null },
      page,
      pageCount: 1,
      plots: [...byId.values()],
    };
  });
  // Answers any name but NOBODY with plots whose texts carry the patterns too.
  plotsFake.get('/api/users/:name/plots', async (request) => {
    const name = (request.params as { name: string }).name;
    return { username: name, plots: name === NORMAL.display_name ? [NORMAL] : name === NOBODY ? [] : [listed] };
  });
  plotsFake.post('/internal/plot-views', async (request) => {
    const body = request.body as { views: Array<{ plotId: string; kind: string }> };
    views.push(...body.views);
    return { counted: body.views.length };
  });
  await plotsFake.listen({ port: 0, host: '127.0.0.1' });
  const plotsUrl = `http://127.0.0.1:${(plotsFake.server.address() as { port: number }).port}`;
  gateway = await buildApp(
    loadEnv({
      ...bed.env,
      CONTACT_URL: 'http://127.0.0.1:9',
      PLOTS_URL: plotsUrl,
      WEB_DIST_DIR: path.join(root, 'dist'),
      PUBLIC_ORIGIN: ORIGIN,
      RATE_LIMIT_PER_MINUTE: '40',
    }),
  );
  await gateway.ready();
});

afterAll(async () => {
  await gateway?.close();
  await plotsFake?.close();
  await operator?.close();
  await rm(root, { recursive: true, force: true });
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
// Each request from its own address, so the rate limit stays out of the way except where tested.
let nextAddress = 1;
const fresh = () => `10.1.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
const get = (url: string, headers: Record<string, string> = {}, remoteAddress = fresh(), method: 'GET' | 'HEAD' = 'GET') =>
  gateway.inject({ method, url, remoteAddress, headers: { 'user-agent': BROWSER, ...headers } });
const announce = (type: string, plotId: string) =>
  operator.publish(`${bed.stream.subjectPrefix}${type}`, JSON.stringify({ type, data: { plotId } }));

describe('server-rendered pages: the render, its head tags and literal user text', () => {
  it("are the app's render in #root with its state, under the page's own head tags", async () => {
    const response = await get(`/plot/${NORMAL.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=0, s-maxage=1, stale-while-revalidate=60');
    expect(response.body).toContain(`<title>Plain Name&#39;s Plot - Pixel Atlas</title>`);
    expect(response.body).toContain(`<link rel="canonical" href="${ORIGIN}/plot/${NORMAL.id}">`);
    expect(response.body).toContain(`<meta property="og:image" content="${ORIGIN}/share-card/${NORMAL.id}.png?v=`);
    expect(response.body).toMatch(
      /<div id="root"><main><h1>Plain Name&#39;s Plot<\/h1>.*<\/main><\/div><script id="pa-state" type="application\/json">\{"queries":/,
    );
    expect(response.body).not.toContain('Own a plot'); // the home screen's shell is left out
  });

  it('keep plot names and messages literal, within a small constant of a normal page', async () => {
    const normal = await get(`/plot/${NORMAL.id}`);
    for (const plot of hostile) {
      const response = await get(`/plot/${plot.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.body.length, plot.display_name).toBeLessThan(normal.body.length + SLACK);
      expect(response.body).toContain(`<title>${escapeHtml(plot.display_name)}&#39;s Plot - Pixel Atlas</title>`);
      expect(response.body).toContain(`<meta name="description" content="${escapeHtml(plot.message)}">`);
      expect(response.body).toContain(`<h1>${escapeHtml(plot.display_name)}&#39;s Plot</h1>`);
    }
  });

  it('keep "</script>" and "<" in user text data: the state holds no "<", and parses back to the same answers', async () => {
    const response = await get(`/plot/${SCRIPTED.id}`);
    expect(response.statusCode).toBe(200);
    const state = /<script id="pa-state" type="application\/json">([^<]*)<\/script>/.exec(response.body)?.[1];
    expect(state).toBeDefined();
    const { queries } = JSON.parse(state!) as { queries: Array<{ data: Plot }> };
    expect(queries[0]!.data.message).toBe(SCRIPTED.message);
    const document = new JSDOM(response.body).window.document;
    expect(document.querySelectorAll('script')).toHaveLength(2); // the app's module script and the state
    expect(document.querySelector('h1')?.textContent).toBe(`${SCRIPTED.display_name}'s Plot`);
  });

  it('keep names in the URL of /user/:name literal', async () => {
    const names = [...PATTERNS.map((p) => `u${p.repeat(12)}`.slice(0, 30)), '$`'.repeat(12), "$'".repeat(15)];
    for (const name of names) {
      const response = await get(`/user/${encodeURIComponent(name)}`);
      expect(response.statusCode, name).toBe(200);
      expect(response.body.length, name).toBeLessThan(SHELL.length + 3 * SLACK);
      expect(response.body).toContain(`<title>${escapeHtml(name)}&#39;s Atlas - Pixel Atlas</title>`);
    }
  });

  it('keep a user page without plots out of search results (its words are whoever typed the address), and index one with plots', async () => {
    const empty = await get(`/user/${encodeURIComponent(NOBODY)}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('<meta name="robots" content="noindex">');
    const owner = await get(`/user/${encodeURIComponent(NORMAL.display_name)}`);
    expect(owner.statusCode).toBe(200);
    expect(owner.body).not.toContain('noindex');
    expect(owner.body).toContain('<link rel="canonical"');
  });

  it('answer addresses that cannot name anything with the not-found page and a 404, without asking the plots service', async () => {
    const before = [...calls.values()].reduce((a, b) => a + b, 0);
    const urls = ['/user/x', `/user/${'y'.repeat(31)}`, '/user/%20padded%20', '/user/tab%09name', '/plot/not-a-uuid'];
    urls.push('/regions/Not_A_Slug', '/regions/creator-coast?page=0', '/regions/creator-coast?page=01', '/regions/creator-coast?page=x');
    for (const url of urls) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toContain('<h1>404 Page Not Found</h1>');
      expect(response.body).toContain('<meta name="robots" content="noindex">');
    }
    expect([...calls.values()].reduce((a, b) => a + b, 0)).toBe(before);
  });
});

describe('server-rendered pages: built once, compressed, counted, and rebuilt on events', () => {
  it('are built once for a crowd: one call to plots per answer the page needs, however many visitors', async () => {
    const plot = hostile[1]!;
    const heard = gateway.renderedDocuments.cache.stamp([`plot:${plot.id}`]);
    announce('plots.plot.updated', plot.id); // whatever an earlier test left in memory
    // Heard (its tag moved): when no earlier test built the page, it is missing before the event lands, and the
    // event must not land in the middle of the build below.
    await eventually(async () => gateway.renderedDocuments.cache.stamp([`plot:${plot.id}`]) > heard);
    await eventually(async () => gateway.renderedDocuments.cache.peek(`page:/plot/${plot.id}`) === undefined);
    const before = callsTo(`/api/plots/${plot.id}`);
    let release = () => {};
    plotDelay = new Promise<void>((resolve) => (release = resolve));
    const crowd = Array.from({ length: 30 }, () => get(`/plot/${plot.id}`, { 'accept-encoding': 'br' }));
    await eventually(async () => callsTo(`/api/plots/${plot.id}`) > before);
    plotDelay = null;
    release();
    const answers = await Promise.all(crowd);
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    expect(callsTo(`/api/plots/${plot.id}`) - before).toBe(1);
    expect(callsTo(`/api/plots/${plot.id}/neighbours`)).toBeGreaterThan(0);
  });

  it('are compressed once: br, gzip and identity are the same document, each with its tag; If-None-Match gets a 304', async () => {
    const url = `/plot/${NORMAL.id}`;
    const [br, gzip, identity] = await Promise.all(['br', 'gzip', 'identity'].map((e) => get(url, { 'accept-encoding': e })));
    expect(br!.headers['content-encoding']).toBe('br');
    expect(gzip!.headers['content-encoding']).toBe('gzip');
    expect(identity!.headers['content-encoding']).toBeUndefined();
    for (const answer of [br!, gzip!, identity!]) expect(answer.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br!.rawPayload).toString()).toBe(identity!.body);
    expect(gunzipSync(gzip!.rawPayload).toString()).toBe(identity!.body);
    expect(br!.rawPayload.length).toBeLessThan(identity!.rawPayload.length / 2);
    expect(br!.headers['content-length']).toBe(String(br!.rawPayload.length));
    expect(new Set([br, gzip, identity].map((a) => a!.headers.etag)).size).toBe(3);

    const notModified = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(br!.headers.etag) });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    expect(notModified.headers.etag).toBe(br!.headers.etag);
    const head = await get(url, { 'accept-encoding': 'br' }, fresh(), 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(br!.headers['content-length']);
    expect(head.rawPayload.length).toBe(0);
  });

  it('count each page view (a 304 too) in the batch sent to plots, never one call per view', async () => {
    const url = `/plot/${NORMAL.id}`;
    const first = await get(url);
    await get(url, { 'if-none-match': String(first.headers.etag) });
    await eventually(async () => views.filter((v) => v.plotId === NORMAL.id && v.kind === 'view').length >= 2);
    expect(callsTo('/api/plot-stats')).toBe(0);
  });

  it('are rebuilt after an event: an updated plot shows its change, a removed one is a 404', async () => {
    // A plot of its own, pattern-laden like the others: removing one of theirs would leave their cases a 404.
    const plot = plotNamed('00000000-0000-4000-8000-000000000200', `R${PATTERNS.join('')}`, `Before its change ${PATTERNS.join(' ')}`);
    byId.set(plot.id, plot);
    expect((await get(`/plot/${plot.id}`)).body).toContain(escapeHtml(plot.message));
    byId.set(plot.id, { ...plot, message: 'Changed by its owner' });
    announce('plots.plot.updated', plot.id);
    await eventually(async () => (await get(`/plot/${plot.id}`)).body.includes('Changed by its owner'));
    byId.delete(plot.id);
    announce('plots.plot.removed', plot.id);
    await eventually(async () => (await get(`/plot/${plot.id}`)).statusCode === 404);
    const gone = await get(`/plot/${plot.id}`);
    expect(gone.body).toContain('<meta name="robots" content="noindex">');
    expect(gone.body).not.toContain('Changed by its owner');
  });

  it('stay as they are after a flag, a pending edit or a link check (a flood of flags rebuilds nothing); a claim makes them stale', async () => {
    const cache = gateway.renderedDocuments.cache;
    const key = `page:/plot/${NORMAL.id}`;
    // Fresh in memory (an earlier test's events may have left a copy that is being rebuilt).
    await eventually(async () => (await get(`/plot/${NORMAL.id}`)) && cache.peek(key) !== undefined);
    const other = hostile[0]!.id;
    for (const type of ['plots.plot.flagged', 'plots.edit.submitted', 'plots.link.unreachable']) {
      const handled = cache.stamp([`plot:${other}`]);
      announce(type, other);
      // Heard: the plot's own tag moved.
      await eventually(async () => cache.stamp([`plot:${other}`]) > handled);
      expect(cache.peek(key), type).toBeDefined();
    }
    announce('plots.plot.claimed', other);
    await eventually(async () => cache.peek(key) === undefined);
  });
});

describe('server-rendered pages: region pages and the rate limit', () => {
  it('share one document per region page: only `page` selects it', async () => {
    const first = await get('/regions/creator-coast');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<title>Creator Coast - Pixel Atlas</title>');
    expect(first.body).toContain(`<link rel="canonical" href="${ORIGIN}/regions/creator-coast">`);
    const before = callsTo('/api/regions/creator-coast?page=1');
    for (const url of ['/regions/creator-coast?page=1', '/regions/creator-coast?utm_source=x', '/regions/creator-coast?page=1&ref=y']) {
      const again = await get(url);
      expect(again.headers.etag, url).toBe(first.headers.etag);
    }
    expect(callsTo('/api/regions/creator-coast?page=1')).toBe(before);
    expect((await get('/regions/creator-coast?page=2')).statusCode).toBe(404);
    expect((await get('/regions/nowhere')).statusCode).toBe(404);
    const list = await get('/regions');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('<title>Regions - Pixel Atlas</title>');
  });

  it('rate-limit /plot/:id, /user/:name and sitemap.xml per client like the API', async () => {
    for (const url of [`/plot/${NORMAL.id}`, '/user/Plain%20Name', '/sitemap.xml']) {
      const address = fresh();
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await get(url, {}, address)).statusCode);
      expect(
        statuses.every((s) => s === 200),
        url,
      ).toBe(true);
      const refused = await get(url, {}, address);
      expect(refused.statusCode, url).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect((await get(url)).statusCode).toBe(200);
    }
  });
});

describe('the sitemaps', () => {
  const parse = (xml: string) => {
    const document = new new JSDOM('').window.DOMParser().parseFromString(xml, 'application/xml');
    expect(document.getElementsByTagName('parsererror')).toHaveLength(0);
    return document;
  };

  it('are an index and its files, valid XML with lastmod, all from one fetch of the plot list per change', async () => {
    const heard = gateway.renderedDocuments.cache.stamp([`plot:${NORMAL.id}`]);
    announce('plots.plot.claimed', NORMAL.id);
    // Heard (the plot's tag moved), not only missing: no earlier test may have built the index, and the event must not
    // land between the fetches below.
    await eventually(async () => gateway.renderedDocuments.cache.stamp([`plot:${NORMAL.id}`]) > heard);
    await eventually(async () => gateway.renderedDocuments.cache.peek('sitemap:index') === undefined);
    const before = callsTo('/api/plots');
    const index = await get('/sitemap.xml');
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locs = [...parse(index.body).getElementsByTagName('sitemap')].map((s) => ({
      loc: s.getElementsByTagName('loc')[0]!.textContent!,
      lastmod: s.getElementsByTagName('lastmod')[0]?.textContent,
    }));
    expect(locs.map((l) => l.loc)).toEqual([
      `${ORIGIN}/sitemaps/pages.xml`,
      `${ORIGIN}/sitemaps/plots-1.xml`,
      `${ORIGIN}/sitemaps/users-1.xml`,
    ]);
    expect(locs.every((l) => /^\d{4}-\d{2}-\d{2}$/.test(l.lastmod ?? ''))).toBe(true);
    for (const { loc } of locs) {
      const file = await get(new URL(loc).pathname);
      expect(file.statusCode, loc).toBe(200);
      const urls = [...parse(file.body).getElementsByTagName('url')];
      expect(urls.length).toBeGreaterThan(0);
      if (loc.includes('plots-')) {
        expect(urls).toHaveLength(byId.size);
        expect(urls.every((u) => u.getElementsByTagName('lastmod')[0]?.textContent === '2026-11-22')).toBe(true);
      }
    }
    expect(callsTo('/api/plots') - before).toBe(1);
    expect((await get('/sitemaps/plots-2.xml')).statusCode).toBe(404);
    expect((await get('/sitemaps/other.xml')).statusCode).toBe(404);
    const robots = await get('/robots.txt');
    expect(robots.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });
});
