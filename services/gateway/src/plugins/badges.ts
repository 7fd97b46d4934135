import type { Plot } from '@pixel-atlas/contracts/plots';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { renderBadge } from '../domain/render-badge.ts';
import type { DocumentDraft } from '../domain/rendered-document-cache.ts';

export interface BadgesOptions {
  siteName: string;
  rateLimitPerMinute: number;
}

const BADGE_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.svg$/i;
/**
 * A badge sits on other sites' pages: a browser asks again after 5 minutes (a visitor counts once a day anyway), a CDN
 * after 10 s (a hidden or removed plot's badge goes soon), and either may show the old one while it asks.
 */
export const BADGE_CACHE_CONTROL = 'public, max-age=300, s-maxage=10, stale-while-revalidate=3600';
/** An SVG opened on its own is a document: it may not run or load anything. */
const BADGE_HEADERS = [['content-security-policy', "default-src 'none'; style-src 'unsafe-inline'"]] as const;
const NOT_FOUND: DocumentDraft = {
  status: 404,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({ error: { code: 'PLOT_NOT_FOUND', message: 'Plot not found' } }),
  cacheControl: 'no-cache',
};

/**
 * `GET /badge/<plot id>.svg`: the owner's embeddable badge ("Find me on Pixel Atlas" and the plot's name), served
 * from the rendered-document cache like the pages: built once per plot and change, compressed once, ETag/304, rebuilt
 * on every replica after a `plots.>` event about the plot. Unknown, hidden and removed plots are 404. Each GET counts a
 * `badge_view` through the view batch.
 */
export const badgesPlugin = fp(
  async (app: FastifyInstance, opts: BadgesOptions) => {
    /** The plot's badge, or a 404 for a plot nobody may see; an upstream failure is kept for no time. */
    async function buildBadge(request: FastifyRequest, id: string): Promise<DocumentDraft> {
      const unavailable: DocumentDraft = {
        status: 503,
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify({ error: { code: 'UPSTREAM_UNAVAILABLE', message: 'Badges are not available right now.' } }),
        cacheControl: 'no-store',
        keepMs: 0,
      };
      try {
        const { response } = await app.callService('plots', { path: `/api/plots/${id}`, requestId: request.id });
        // Unknown, hidden (under review) and removed plots: one answer, until an event about the plot.
        if (response.status === 404 || response.status === 400) {
          await response.body?.cancel();
          return NOT_FOUND;
        }
        if (!response.ok) {
          await response.body?.cancel();
          return unavailable;
        }
        const plot = (await response.json()) as Plot;
        return {
          status: 200,
          contentType: 'image/svg+xml; charset=utf-8',
          body: renderBadge({ displayName: plot.display_name, siteName: opts.siteName }),
          cacheControl: BADGE_CACHE_CONTROL,
          headers: BADGE_HEADERS,
        };
      } catch (error) {
        request.log.warn({ err: error }, 'badge: plots unavailable');
        return unavailable;
      }
    }

    const config = {
      inlineRateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000, countedIn: 'replica' as const },
      writesOwnHead: true,
    };
    app.get<{ Params: { file: string } }>('/badge/:file', { schema: { hide: true }, config }, async (request, reply) => {
      const id = BADGE_FILE.exec(request.params.file)?.[1]?.toLowerCase();
      const doc = await app.renderedDocuments.serve(request, reply, id ? `badge:${id}` : 'badge:not-found', {
        tags: id ? [`plot:${id}`] : [],
        build: async () => (id ? buildBadge(request, id) : NOT_FOUND),
      });
      // A load of the badge (a 304 too: the page embedding it was shown), counted in the gateway's batch.
      if (id && doc.status === 200 && request.method === 'GET') app.plotViews.record({ request, plotId: id, kind: 'badge_view' });
    });
  },
  { name: 'gateway-badges', dependencies: ['gateway-proxy', 'gateway-plot-views', 'gateway-rendered-documents'] },
);
