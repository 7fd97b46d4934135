import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { Plot } from '@pixel-atlas/contracts/plots';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  compileShell,
  isPossibleDisplayName,
  isPossiblePlotId,
  notFoundPageMeta,
  plotPageMeta,
  renderRobots,
  renderShell,
  renderSitemap,
  userPageMeta,
  type PageMeta,
  type ShellTemplate,
} from '../domain/render-share-page.ts';
import { reportPlotView } from '../domain/report-plot-view.ts';

export interface SharePagesOptions {
  distDir: string;
  siteName: string;
  publicOrigin?: string;
  internalToken: string;
  /** rel of outbound plot links in server-rendered pages (ARCHITECTURE.md 7: an operator decision). */
  outboundLinkRel: string;
  /** Requests per minute per client, the same ceiling as the API (each page costs a call to the plots service). */
  rateLimitPerMinute: number;
}

/**
 * Crawlable HTML for `/plot/:id` and `/user/:name` (title, description, Open Graph, canonical URL and
 * the plot's outbound link in the markup), `sitemap.xml` and `robots.txt`. The SPA takes over on load.
 * When the plots service cannot answer, pages fall back to the plain SPA shell: sharing never breaks.
 */
export const sharePagesPlugin = fp(
  async (app: FastifyInstance, opts: SharePagesOptions) => {
    // Cut into parts once: pages are then concatenated, never built with user text as a replace() pattern.
    let shell: { html: string; template: ShellTemplate } | null = null;
    const loadShell = async () => {
      if (shell) return shell;
      const html = await readFile(path.join(opts.distDir, 'index.html'), 'utf8').catch(() => null);
      if (html !== null) shell = { html, template: compileShell(html) };
      return shell;
    };
    const rateLimit = { max: opts.rateLimitPerMinute, timeWindow: 60_000 };
    const origin = (request: FastifyRequest) =>
      opts.publicOrigin ? new URL(opts.publicOrigin).origin : `${request.protocol}://${request.host}`;

    async function fromPlots<T>(request: FastifyRequest, url: string): Promise<{ status: number; body: T | null }> {
      const pool = app.upstreams.get('plots');
      if (!pool) return { status: 503, body: null };
      try {
        const response = await fetch(`${pool.pick()}${url}`, {
          headers: { [INTERNAL_HEADERS.token]: opts.internalToken, [INTERNAL_HEADERS.requestId]: request.id },
          signal: AbortSignal.timeout(3000),
        });
        return { status: response.status, body: response.ok ? ((await response.json()) as T) : null };
      } catch (error) {
        request.log.warn({ err: error }, 'plots service unavailable for a server-rendered page');
        return { status: 503, body: null };
      }
    }

    async function sendPage(reply: FastifyReply, meta: PageMeta | null, status: number) {
      const loaded = await loadShell();
      if (!loaded) return reply.callNotFound();
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').status(status);
      return reply.send(meta ? renderShell(loaded.template, meta, opts.siteName) : loaded.html);
    }

    const linkRel = opts.outboundLinkRel;
    app.get<{ Params: { id: string } }>('/plot/:id', { schema: { hide: true }, config: { rateLimit } }, async (request, reply) => {
      if (!isPossiblePlotId(request.params.id)) return sendPage(reply, null, 404);
      const { status, body } = await fromPlots<Plot>(request, `/api/plots/${encodeURIComponent(request.params.id)}`);
      if (body) {
        reportPlotView({ pool: app.upstreams.get('plots'), internalToken: opts.internalToken, request, plotId: body.id });
        return sendPage(reply, plotPageMeta(body, { origin: origin(request), siteName: opts.siteName, linkRel }), 200);
      }
      // Unknown or removed plots are real 404s for crawlers; the SPA still shows its 'Plot Not Found' screen.
      return sendPage(reply, null, status === 404 || status === 400 ? 404 : 200);
    });

    app.get<{ Params: { username: string } }>(
      '/user/:username',
      { schema: { hide: true }, config: { rateLimit } },
      async (request, reply) => {
        const username = request.params.username;
        // No name outside the claim rules can have plots: answer at once, without a call upstream.
        if (!isPossibleDisplayName(username)) return sendPage(reply, notFoundPageMeta({ siteName: opts.siteName }), 404);
        const { body } = await fromPlots<{ username: string; plots: Plot[] }>(request, `/api/users/${encodeURIComponent(username)}/plots`);
        if (!body) return sendPage(reply, null, 200);
        return sendPage(reply, userPageMeta(username, body.plots, { origin: origin(request), siteName: opts.siteName, linkRel }), 200);
      },
    );

    app.get('/sitemap.xml', { schema: { hide: true }, config: { rateLimit } }, async (request, reply) => {
      const { body } = await fromPlots<Plot[]>(request, '/api/plots');
      if (!body) return reply.status(503).type('text/plain').send('The sitemap is not available right now.');
      return reply
        .type('application/xml; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(renderSitemap(origin(request), body));
    });

    app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) => {
      return reply.type('text/plain; charset=utf-8').send(renderRobots(origin(request)));
    });
  },
  { name: 'gateway-share-pages', dependencies: ['gateway-proxy'] },
);
