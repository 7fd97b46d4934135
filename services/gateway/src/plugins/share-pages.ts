import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { Plot } from '@pixel-atlas/contracts/plots';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { injectPageMeta, plotPageMeta, renderRobots, renderSitemap, userPageMeta, type PageMeta } from '../domain/render-share-page.ts';

export interface SharePagesOptions {
  distDir: string;
  siteName: string;
  publicOrigin?: string;
  internalToken: string;
  /** rel of outbound plot links in server-rendered pages (ARCHITECTURE.md 7: an operator decision). */
  outboundLinkRel: string;
}

/**
 * Crawlable HTML for `/plot/:id` and `/user/:name` (title, description, Open Graph, canonical URL and
 * the plot's outbound link in the markup), `sitemap.xml` and `robots.txt`. The SPA takes over on load.
 * When the plots service cannot answer, pages fall back to the plain SPA shell: sharing never breaks.
 */
export const sharePagesPlugin = fp(
  async (app: FastifyInstance, opts: SharePagesOptions) => {
    let shell: string | null = null;
    const loadShell = async () => (shell ??= await readFile(path.join(opts.distDir, 'index.html'), 'utf8').catch(() => null));
    const origin = (request: FastifyRequest) => (opts.publicOrigin ? new URL(opts.publicOrigin).origin : `${request.protocol}://${request.host}`);

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
      const html = await loadShell();
      if (!html) return reply.callNotFound();
      reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').status(status);
      return reply.send(meta ? injectPageMeta(html, meta, opts.siteName) : html);
    }

    const linkRel = opts.outboundLinkRel;
    app.get<{ Params: { id: string } }>('/plot/:id', { schema: { hide: true } }, async (request, reply) => {
      const { status, body } = await fromPlots<Plot>(request, `/api/plots/${encodeURIComponent(request.params.id)}`);
      if (body) return sendPage(reply, plotPageMeta(body, { origin: origin(request), siteName: opts.siteName, linkRel }), 200);
      // Unknown or removed plots are real 404s for crawlers; the SPA still shows its 'Plot Not Found' screen.
      return sendPage(reply, null, status === 404 || status === 400 ? 404 : 200);
    });

    app.get<{ Params: { username: string } }>('/user/:username', { schema: { hide: true } }, async (request, reply) => {
      const username = request.params.username;
      const { body } = await fromPlots<{ username: string; plots: Plot[] }>(request, `/api/users/${encodeURIComponent(username)}/plots`);
      if (!body) return sendPage(reply, null, 200);
      return sendPage(reply, userPageMeta(username, body.plots, { origin: origin(request), siteName: opts.siteName, linkRel }), 200);
    });

    app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) => {
      const { body } = await fromPlots<Plot[]>(request, '/api/plots');
      if (!body) return reply.status(503).type('text/plain').send('The sitemap is not available right now.');
      return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(renderSitemap(origin(request), body));
    });

    app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) => {
      return reply.type('text/plain; charset=utf-8').send(renderRobots(origin(request)));
    });
  },
  { name: 'gateway-share-pages', dependencies: ['gateway-proxy'] },
);
