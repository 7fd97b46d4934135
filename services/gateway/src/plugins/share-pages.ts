import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DIRECTORY_MAX_PAGE, regionListSchema, type RegionSummary } from '@pixel-atlas/contracts/directory';
import type { Plot } from '@pixel-atlas/contracts/plots';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { DocumentDraft, RenderedDocument } from '../domain/rendered-document-cache.ts';
import { renderSharePageDocument, sharePageUrl, type ApiAnswer, type SharePage } from '../domain/render-share-page-document.ts';
import {
  NOT_FOUND_BODY,
  compileShell,
  isPossibleDisplayName,
  isPossiblePlotId,
  notFoundPageMeta,
  renderShell,
  type ShellTemplate,
} from '../domain/render-share-page.ts';
import {
  renderPagesSitemap,
  renderPlotsSitemap,
  renderRobots,
  renderSitemapIndex,
  renderUsersSitemap,
  sitemapSource,
  type SitemapSource,
} from '../domain/render-sitemap.ts';
import { loadServerRenderer } from '../domain/server-renderer.ts';
import { PAGE_CACHE_CONTROL } from './rendered-documents.ts';

export interface SharePagesOptions {
  distDir: string;
  siteName: string;
  /** Every absolute link (canonical, og:url, sitemap) is built from it, never from the Host header: pages are shared. */
  publicOrigin: string;
  /** rel of outbound plot links in server-rendered pages (ARCHITECTURE.md 7: an operator decision). */
  outboundLinkRel: string;
  /** Requests per minute per client, the same ceiling as the API. */
  rateLimitPerMinute: number;
}

/** What a page shows changes with any plot (its neighbours, its region's counts) or with the map (region names). */
const PAGE_TAGS = ['plots', 'map'] as const;
/** Region slugs are regionSlug()'s output; anything else is answered 404 without asking plots. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/;
const PAGE_NUMBER = /^[1-9]\d{0,5}$/;
const SITEMAP_FILE = /^(plots|users)-([1-9]\d{0,4})\.xml$/;

/**
 * Crawlable pages (`/plot/:id`, `/user/:name`, `/regions`, `/regions/:slug`), the sitemaps and robots.txt, all answered
 * from the rendered-document cache: each is built once per change (the web app's own components render #root on the
 * server; see `renderSharePageDocument`), compressed once, and sent with an ETag. The routes only check and normalise
 * the address: an address that cannot name anything is answered without asking the plots service.
 */
export const sharePagesPlugin = fp(
  async (app: FastifyInstance, opts: SharePagesOptions) => {
    const origin = new URL(opts.publicOrigin).origin;
    const meta = { origin, siteName: opts.siteName };
    const documents = app.renderedDocuments;
    const renderer = await loadServerRenderer(opts.distDir, app.log);
    // Cut into parts once: pages are then concatenated, never built with user text as a replace() pattern.
    let shell: { html: string; template: ShellTemplate } | null = null;
    const loadShell = async () => {
      if (shell) return shell;
      const html = await readFile(path.join(opts.distDir, 'index.html'), 'utf8').catch(() => null);
      if (html !== null) shell = { html, template: compileShell(html) };
      return shell;
    };

    const fetchApi = async (request: FastifyRequest, apiPath: string): Promise<ApiAnswer> => {
      try {
        const { response } = await app.callService('plots', { path: apiPath, requestId: request.id });
        if (!response.ok) {
          await response.body?.cancel();
          return { status: response.status, body: null };
        }
        return { status: 200, body: await response.json() };
      } catch (error) {
        request.log.warn({ err: error, path: apiPath }, 'plots service unavailable for a server-rendered page');
        return { status: 503, body: null };
      }
    };

    const notFound = (loaded: { template: ShellTemplate }): DocumentDraft => ({
      status: 404,
      contentType: 'text/html; charset=utf-8',
      body: renderShell(loaded.template, notFoundPageMeta(meta), opts.siteName, NOT_FOUND_BODY),
      cacheControl: PAGE_CACHE_CONTROL,
    });

    /** Answers an address that names nothing (no upstream call; one document per status for every such address). */
    async function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
      const loaded = await loadShell();
      if (!loaded) return reply.callNotFound();
      return documents.serve(request, reply, 'page:not-found', { tags: [], build: async () => notFound(loaded) });
    }

    /** The page's document, sent; undefined when there is no web app to wrap it in (the SPA's not-found answer). */
    async function sendPage(request: FastifyRequest, reply: FastifyReply, page: SharePage): Promise<RenderedDocument | undefined> {
      const loaded = await loadShell();
      if (!loaded) {
        reply.callNotFound();
        return undefined;
      }
      const { pathname, search } = sharePageUrl(page);
      return documents.serve(request, reply, `page:${pathname}${search}`, {
        tags: PAGE_TAGS,
        staleWhileRebuilding: true,
        build: () =>
          renderSharePageDocument({
            page,
            fetchApi: (apiPath) => fetchApi(request, apiPath),
            renderer,
            shell: loaded,
            meta,
            outboundLinkRel: opts.outboundLinkRel,
            cacheControl: PAGE_CACHE_CONTROL,
            log: request.log,
          }),
      });
    }

    const config = {
      inlineRateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000, countedIn: 'replica' as const },
      writesOwnHead: true,
    };
    const route = { schema: { hide: true }, config };

    app.get<{ Params: { id: string } }>('/plot/:id', route, async (request, reply) => {
      const { id } = request.params;
      if (!isPossiblePlotId(id)) return sendNotFound(request, reply);
      const plotId = id.toLowerCase();
      const doc = await sendPage(request, reply, { kind: 'plot', id: plotId });
      // A page view, counted in the gateway's batch (no call to plots per view), from memory or not, a 304 included.
      if (doc?.status === 200 && request.method === 'GET') app.plotViews.record({ request, plotId, kind: 'view' });
    });

    app.get<{ Params: { username: string } }>('/user/:username', route, async (request, reply) => {
      const name = request.params.username;
      // No name outside the claim rules can have plots: answer at once, without a call upstream.
      if (!isPossibleDisplayName(name)) return sendNotFound(request, reply);
      return sendPage(request, reply, { kind: 'user', name });
    });

    app.get('/regions', route, async (request, reply) => sendPage(request, reply, { kind: 'regions' }));

    app.get<{ Params: { slug: string }; Querystring: Record<string, unknown> }>('/regions/:slug', route, async (request, reply) => {
      if (!SLUG.test(request.params.slug)) return sendNotFound(request, reply);
      // Only `page` selects content: other parameters (utm_…) share the page's one document. `?page=1` and none are
      // the same page; anything but a plain number from 1 is an address that names nothing (as the app routes it).
      const raw = request.query.page;
      if (raw !== undefined && (typeof raw !== 'string' || !PAGE_NUMBER.test(raw))) return sendNotFound(request, reply);
      const page = raw === undefined ? 1 : Number(raw);
      if (page > DIRECTORY_MAX_PAGE) return sendNotFound(request, reply);
      return sendPage(request, reply, { kind: 'region', slug: request.params.slug, page });
    });

    sitemapRoutes(app, { origin, route, fetchApi });
  },
  { name: 'gateway-share-pages', dependencies: ['gateway-proxy', 'gateway-rendered-documents', 'gateway-plot-views'] },
);

interface SitemapRouteOptions {
  origin: string;
  route: { schema: { hide: boolean }; config: object };
  fetchApi: (request: FastifyRequest, path: string) => Promise<ApiAnswer>;
}

/**
 * `/sitemap.xml` (an index), `/sitemaps/pages.xml`, `/sitemaps/plots-<n>.xml`, `/sitemaps/users-<n>.xml` and
 * robots.txt. Every file is built from one fetch of the plot list and the regions per change, shared by all of them.
 */
function sitemapRoutes(app: FastifyInstance, { origin, route, fetchApi }: SitemapRouteOptions): void {
  const documents = app.renderedDocuments;
  let source: { stamp: number; loading: Promise<SitemapSource> } | null = null;
  const sourceFor = (request: FastifyRequest): Promise<SitemapSource> => {
    const stamp = documents.cache.stamp(PAGE_TAGS);
    if (source?.stamp !== stamp) {
      const loading = loadSitemapSource(request, fetchApi);
      source = { stamp, loading };
      // A failed fetch is not kept: the next request asks again.
      loading.catch(() => {
        if (source?.loading === loading) source = null;
      });
    }
    return source.loading;
  };
  const xml = (status: number, body: string): DocumentDraft => ({
    status,
    contentType: status === 200 ? 'application/xml; charset=utf-8' : 'text/plain; charset=utf-8',
    body,
    cacheControl: PAGE_CACHE_CONTROL,
  });
  const serveSitemap = (request: FastifyRequest, reply: FastifyReply, file: string, render: (s: SitemapSource) => string | null) =>
    documents.serve(request, reply, `sitemap:${file}`, {
      tags: PAGE_TAGS,
      staleWhileRebuilding: true,
      build: async () => {
        try {
          const text = render(await sourceFor(request));
          return text === null ? xml(404, 'No such sitemap.') : xml(200, text);
        } catch (error) {
          request.log.warn({ err: error }, 'the sitemap could not be built');
          return { ...xml(503, 'The sitemap is not available right now.'), keepMs: 0, cacheControl: 'no-cache' };
        }
      },
    });

  app.get('/sitemap.xml', route, async (request, reply) => serveSitemap(request, reply, 'index', (s) => renderSitemapIndex(origin, s)));
  app.get('/sitemaps/pages.xml', route, async (request, reply) =>
    serveSitemap(request, reply, 'pages', (s) => renderPagesSitemap(origin, s)),
  );
  app.get<{ Params: { file: string } }>('/sitemaps/:file', route, async (request, reply) => {
    const match = SITEMAP_FILE.exec(request.params.file);
    if (!match) return reply.status(404).type('text/plain; charset=utf-8').send('No such sitemap.');
    const [, kind, n] = match;
    const render = kind === 'plots' ? renderPlotsSitemap : renderUsersSitemap;
    return serveSitemap(request, reply, `${kind}-${n}`, (s) => render(origin, s, Number(n)));
  });
  app.get('/robots.txt', { schema: { hide: true }, config: { writesOwnHead: true } }, async (request, reply) =>
    documents.serve(request, reply, 'robots.txt', {
      tags: [],
      build: async () => ({
        status: 200,
        contentType: 'text/plain; charset=utf-8',
        body: renderRobots(origin),
        cacheControl: PAGE_CACHE_CONTROL,
      }),
    }),
  );
}

/** The public plot list and the regions (none when the plots service has no directory yet), or a throw. */
async function loadSitemapSource(
  request: FastifyRequest,
  fetchApi: (request: FastifyRequest, path: string) => Promise<ApiAnswer>,
): Promise<SitemapSource> {
  const [plots, regions] = await Promise.all([fetchApi(request, '/api/plots'), fetchApi(request, '/api/regions')]);
  if (plots.status !== 200) throw new Error(`GET /api/plots answered ${plots.status}`);
  if (regions.status !== 200 && regions.status !== 404) throw new Error(`GET /api/regions answered ${regions.status}`);
  const list: RegionSummary[] = regions.status === 200 ? regionListSchema.parse(regions.body).regions : [];
  return sitemapSource(plots.body as Plot[], list);
}
