import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { etagMatches, negotiateEncoding, type ContentEncoding } from '@pixel-atlas/service-kit/cached-json';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { renderBadge } from '../domain/render-badge.ts';

export interface BadgesOptions {
  siteName: string;
  internalToken: string;
  rateLimitPerMinute: number;
  /** Badges kept in memory (one per plot, a few KB each). */
  cacheEntries?: number;
}

/** One plot's badge, encoded once. */
interface Badge {
  etag: string;
  bytes: Record<ContentEncoding, Buffer>;
}

const BADGE_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.svg$/i;
/**
 * A badge sits on other sites' pages: a browser asks again after 5 minutes (a visitor counts once a day anyway), a CDN
 * after 10 s (a new display name shows soon), and either may show the old one while it asks.
 */
export const BADGE_CACHE_CONTROL = 'public, max-age=300, s-maxage=10, stale-while-revalidate=3600';
/** Even if an event was missed, a badge is rebuilt from the plot at least this often. */
const BADGE_TTL_MS = 5 * 60_000;
/** An SVG opened on its own is a document: it may not run or load anything. */
const BADGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

function encodeBadge(svg: string): Badge {
  const identity = Buffer.from(svg);
  return {
    etag: `"badge-${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
    bytes: { identity, gzip: gzipSync(identity), br: brotliCompressSync(identity) },
  };
}

/**
 * `GET /badge/<plot id>.svg`: the owner's embeddable badge ("Find me on Pixel Atlas" and the plot's name). Built once
 * per plot and change (single-flight through the LRU's fetch), compressed once, answered with ETag/304; dropped on
 * every replica when a `plots.>` event names the plot. Unknown, hidden and removed plots are 404. Each GET counts a
 * `badge_view` through the view batch.
 */
export const badgesPlugin = fp(
  async (app: FastifyInstance, opts: BadgesOptions) => {
    const badges = new LRUCache<string, Badge>({
      max: opts.cacheEntries ?? 2000,
      ttl: BADGE_TTL_MS,
      fetchMethod: async (id, _stale, { signal }) => {
        const pool = app.upstreams.get('plots');
        if (!pool) throw new AppError('UPSTREAM_UNAVAILABLE', 'Badges are not available right now.');
        let response: Response;
        try {
          response = await fetch(`${pool.pick()}/api/plots/${id}`, {
            headers: { [INTERNAL_HEADERS.token]: opts.internalToken },
            signal: AbortSignal.any([signal, AbortSignal.timeout(3000)]),
          });
        } catch (error) {
          app.log.warn({ err: error }, 'badge: plots unavailable');
          throw new AppError('UPSTREAM_UNAVAILABLE', 'Badges are not available right now.');
        }
        // Unknown, hidden (under review) and removed plots: nothing cached, the next request asks again.
        if (response.status === 404 || response.status === 400) return undefined;
        if (!response.ok) throw new AppError('UPSTREAM_UNAVAILABLE', 'Badges are not available right now.');
        const plot = (await response.json()) as Plot;
        return encodeBadge(renderBadge({ displayName: plot.display_name, siteName: opts.siteName }));
      },
    });

    const subscription = app.bus.nc.subscribe(app.bus.subject('plots.>'));
    (async () => {
      for await (const message of subscription) {
        const plotId = message.json<{ data?: { plotId?: unknown } }>().data?.plotId;
        if (typeof plotId === 'string') badges.delete(plotId.toLowerCase());
      }
    })().catch((error) => app.log.warn({ err: error }, 'badge invalidation stopped'));
    app.addHook('preClose', async () => subscription.unsubscribe());

    app.get<{ Params: { file: string } }>(
      '/badge/:file',
      { schema: { hide: true }, config: { rateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000 } } },
      async (request, reply) => {
        const id = BADGE_FILE.exec(request.params.file)?.[1]?.toLowerCase();
        const badge = id ? await badges.fetch(id) : undefined;
        if (!id || !badge) throw new AppError('PLOT_NOT_FOUND', 'Plot not found');
        if (request.method === 'GET') app.plotViews.record({ request, plotId: id, kind: 'badge_view' });
        reply
          .header('etag', badge.etag)
          .header('cache-control', BADGE_CACHE_CONTROL)
          .header('vary', 'accept-encoding')
          .header('content-security-policy', BADGE_CSP);
        if (etagMatches(request.headers['if-none-match'], badge.etag)) return reply.status(304).send();
        const encoding = negotiateEncoding(request.headers['accept-encoding']);
        reply.type('image/svg+xml; charset=utf-8');
        if (encoding !== 'identity') reply.header('content-encoding', encoding);
        return reply.send(badge.bytes[encoding]);
      },
    );
  },
  { name: 'gateway-badges', dependencies: ['gateway-proxy', 'gateway-plot-views', 'pixel-atlas-nats'] },
);
