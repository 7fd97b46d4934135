import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { MapLayout } from '@pixel-atlas/contracts/map';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { defineMetrics } from '@pixel-atlas/service-kit/metrics';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import { renderShareCard, type CardTile } from '../domain/render-share-card.ts';
import { isPossiblePlotId } from '../domain/render-share-page.ts';
import { shareCardVersion } from '../domain/share-card-address.ts';
import type { ServiceName } from '../upstreams.ts';

export interface ShareCardsOptions {
  siteName: string;
  publicOrigin: string;
  internalToken: string;
  rateLimitPerMinute: number;
  /** Cards rendered at once per process (CPU-bound), and how many may wait; past that 503 with Retry-After. */
  renderConcurrency: number;
  renderQueue: number;
  /** Cards kept in memory (one per plot, its latest version), bounded in count and bytes. */
  cacheEntries: number;
  cacheBytes: number;
}

const CARD_FILE = /^([0-9a-f-]{36})\.png$/i;

/**
 * `GET /share-card/<plot id>.png`: the plot's share card (og:image of its page and of its owner's user page), drawn
 * from the plot, its avatar, the plots around it and the map layout. Rendered at most `renderConcurrency` at once,
 * kept in an LRU by plot id and content version, dropped on every replica when a plots or map event says the plot
 * or the map changed (each replica listens itself, like the live updates).
 */
export const shareCardsPlugin = fp(
  async (app: FastifyInstance, opts: ShareCardsOptions) => {
    const cards = new LRUCache<string, { version: string; png: Buffer }>({
      max: opts.cacheEntries,
      maxSize: opts.cacheBytes,
      sizeCalculation: (entry) => entry.png.length,
    });
    let layout: Promise<CardTile[] | null> | null = null;
    const rendering = new Map<string, Promise<Buffer>>();
    const limit = pLimit(opts.renderConcurrency);
    const { renders, refused } = defineMetrics(app.metrics, (m) => ({
      renders: m.counter({ name: 'share_card_renders_total', help: 'Share cards rendered (cache misses)' }),
      refused: m.counter({
        name: 'share_card_renders_refused_total',
        help: 'Share card requests refused with 503 because every render slot and queue place was taken',
      }),
    }));

    async function upstream(request: FastifyRequest, service: ServiceName, url: string): Promise<Response | null> {
      const pool = app.upstreams.get(service);
      if (!pool) return null;
      try {
        return await fetch(`${pool.pick()}${url}`, {
          headers: { [INTERNAL_HEADERS.token]: opts.internalToken, [INTERNAL_HEADERS.requestId]: request.id },
          signal: AbortSignal.timeout(5000),
        });
      } catch (error) {
        request.log.warn({ err: error, service }, 'share card: upstream unavailable');
        return null;
      }
    }

    async function mapTiles(request: FastifyRequest): Promise<CardTile[] | null> {
      layout ??= (async () => {
        const response = await upstream(request, 'map', '/api/map-layout');
        if (response?.status === 404) return null;
        if (!response?.ok) throw new AppError('UPSTREAM_UNAVAILABLE', 'The map is not available right now.');
        return ((await response.json()) as MapLayout).tiles;
      })();
      // A failed fetch is not kept: the next card asks again.
      return layout.catch((error) => {
        layout = null;
        throw error;
      });
    }

    async function render(request: FastifyRequest, plot: Plot): Promise<Buffer> {
      const [tiles, avatar, list] = await Promise.all([
        mapTiles(request),
        upstream(request, 'plots', `/api/plots/${plot.id}/avatar`),
        upstream(request, 'plots', '/api/plots'),
      ]);
      const neighbours = list?.ok ? ((await list.json()) as Plot[]) : [];
      const avatarPng = avatar?.ok ? Buffer.from(await avatar.arrayBuffer()) : null;
      renders.inc();
      return renderShareCard({ plot, avatarPng, neighbours, tiles, siteName: opts.siteName, siteHost: new URL(opts.publicOrigin).host });
    }

    // Every replica drops what an event makes stale: the plot's card, or every card when the map changed.
    const subscriptions = ['plots.>', 'map.layout.>'].map((subject) => app.bus.nc.subscribe(app.bus.subject(subject)));
    for (const subscription of subscriptions) {
      (async () => {
        for await (const message of subscription) {
          if (message.subject.includes('map.layout.')) {
            layout = null;
            cards.clear();
            continue;
          }
          const plotId = message.json<{ data?: { plotId?: unknown } }>().data?.plotId;
          if (typeof plotId === 'string') cards.delete(plotId);
        }
      })().catch((error) => app.log.warn({ err: error }, 'share card invalidation stopped'));
    }
    app.addHook('preClose', async () => {
      for (const subscription of subscriptions) subscription.unsubscribe();
    });

    app.get<{ Params: { file: string }; Querystring: { v?: string } }>(
      '/share-card/:file',
      { schema: { hide: true }, config: { rateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000 } } },
      async (request, reply) => {
        const id = CARD_FILE.exec(request.params.file)?.[1];
        if (!id || !isPossiblePlotId(id)) throw new AppError('PLOT_NOT_FOUND', 'Plot not found');
        const found = await upstream(request, 'plots', `/api/plots/${encodeURIComponent(id)}`);
        if (found?.status === 404 || found?.status === 400) throw new AppError('PLOT_NOT_FOUND', 'Plot not found');
        if (!found?.ok) throw new AppError('UPSTREAM_UNAVAILABLE', 'The share card is not available right now.');
        const plot = (await found.json()) as Plot;
        const version = shareCardVersion(plot);

        let png = cards.get(plot.id)?.version === version ? cards.get(plot.id)!.png : null;
        if (!png) {
          const key = `${plot.id}:${version}`;
          let pending = rendering.get(key);
          if (!pending) {
            if (limit.activeCount + limit.pendingCount >= opts.renderConcurrency + opts.renderQueue) {
              refused.inc();
              reply.header('retry-after', '5');
              throw new AppError('NOT_READY', 'Too many share cards are being drawn right now. Please try again in a few seconds.');
            }
            pending = limit(() => render(request, plot)).finally(() => rendering.delete(key));
            rendering.set(key, pending);
          }
          png = await pending;
          cards.set(plot.id, { version, png });
        }
        // The versioned address never changes its picture; an old or missing version is answered with the current card.
        const current = request.query.v === version;
        return reply
          .type('image/png')
          .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'public, max-age=300')
          .header('cross-origin-resource-policy', 'cross-origin')
          .send(png);
      },
    );
  },
  { name: 'gateway-share-cards', dependencies: ['gateway-proxy'] },
);
