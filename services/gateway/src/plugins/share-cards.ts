import type { MapLayout } from '@pixel-atlas/contracts/map';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { defineMetrics } from '@pixel-atlas/service-kit/metrics';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import type { DocumentDraft } from '../domain/rendered-document-cache.ts';
import { renderShareCard, type CardTile } from '../domain/render-share-card.ts';
import { isPossiblePlotId } from '../domain/render-share-page.ts';
import { shareCardVersion } from '../domain/share-card-address.ts';
import type { ServiceName } from '../upstreams.ts';

export interface ShareCardsOptions {
  siteName: string;
  publicOrigin: string;
  rateLimitPerMinute: number;
  /** Cards rendered at once per process (CPU-bound), and how many may wait; past that 503 with Retry-After. */
  renderConcurrency: number;
  renderQueue: number;
  /** Pictures kept in memory (one per plot version), bounded in count and bytes (the answers live in the rendered cache). */
  cacheEntries: number;
  cacheBytes: number;
}

const CARD_FILE = /^([0-9a-f-]{36})\.png$/i;
/** shareCardVersion's form: anything else is no version (the current card, briefly cacheable). */
const VERSION = /^[\w-]{16}$/;
/**
 * A card is drawn from its plot and the map (their events rebuild it) and from its neighbours (no event of theirs
 * does): an hour bounds how long a neighbour's change can be missing from it.
 */
const CARD_MAX_AGE_MS = 60 * 60_000;

/**
 * `GET /share-card/<plot id>.png`: the plot's share card (og:image of its page and of its owner's user page), drawn
 * from the plot, its avatar, the plots around it and the map layout. Answered from the rendered-document cache (built
 * once per change of the plot or the map, with an ETag); the picture itself is drawn once per plot version (an old or
 * missing `?v=` gets the same picture with a shorter Cache-Control), at most `renderConcurrency` at once.
 */
export const shareCardsPlugin = fp(
  async (app: FastifyInstance, opts: ShareCardsOptions) => {
    const documents = app.renderedDocuments;
    /** Pictures by plot and version, each with the stamp of the events it was drawn under (see `drawn`). */
    const pictures = new LRUCache<string, { stamp: number; png: Promise<Buffer> }>({
      max: opts.cacheEntries,
      maxSize: opts.cacheBytes,
      // A picture being drawn counts for a typical card's size until it is in.
      sizeCalculation: () => 200_000,
    });
    let layout: { stamp: number; tiles: Promise<CardTile[] | null> } | null = null;
    const limit = pLimit(opts.renderConcurrency);
    const { renders, refused } = defineMetrics(app.metrics, (m) => ({
      renders: m.counter({ name: 'share_card_renders_total', help: 'Share cards rendered (cache misses)' }),
      refused: m.counter({
        name: 'share_card_renders_refused_total',
        help: 'Share card requests refused with 503 because every render slot and queue place was taken',
      }),
    }));

    async function upstream(request: FastifyRequest, service: ServiceName, url: string): Promise<Response | null> {
      try {
        return (await app.callService(service, { path: url, requestId: request.id })).response;
      } catch (error) {
        request.log.warn({ err: error, service }, 'share card: upstream unavailable');
        return null;
      }
    }

    /** The map's tiles, fetched once per map change (a `map` event) for every card. */
    function mapTiles(request: FastifyRequest): Promise<CardTile[] | null> {
      const stamp = documents.cache.stamp(['map']);
      if (layout?.stamp !== stamp) {
        const tiles = (async () => {
          const response = await upstream(request, 'map', '/api/map-layout');
          if (response?.status === 404) return null;
          if (!response?.ok) throw new AppError('UPSTREAM_UNAVAILABLE', 'The map is not available right now.');
          return ((await response.json()) as MapLayout).tiles;
        })();
        layout = { stamp, tiles };
        // A failed fetch is not kept: the next card asks again.
        tiles.catch(() => {
          if (layout?.tiles === tiles) layout = null;
        });
      }
      return layout.tiles;
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

    /** The plot's picture at this version: drawn once, unless its plot or the map changed since. */
    function drawn(request: FastifyRequest, plot: Plot, version: string): Promise<Buffer> {
      const key = `${plot.id}:${version}`;
      const stamp = documents.cache.stamp(['map', `plot:${plot.id}`]);
      const held = pictures.get(key);
      if (held?.stamp === stamp) return held.png;
      if (limit.activeCount + limit.pendingCount >= opts.renderConcurrency + opts.renderQueue) {
        refused.inc();
        throw new AppError('NOT_READY', 'Too many share cards are being drawn right now. Please try again in a few seconds.');
      }
      const png = limit(() => render(request, plot));
      pictures.set(key, { stamp, png });
      png.catch(() => {
        if (pictures.get(key)?.png === png) pictures.delete(key);
      });
      return png;
    }

    const failure = (status: number, error: AppError): DocumentDraft => ({
      status,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ error: { code: error.code, message: error.message } }),
      cacheControl: 'no-cache',
      // A missing plot is kept until its next event; an upstream failure or a full queue is not kept at all.
      keepMs: status === 404 ? undefined : 0,
      headers: status === 503 ? [['retry-after', '5']] : [],
    });

    async function buildCard(request: FastifyRequest, plotId: string, requested: string): Promise<DocumentDraft> {
      try {
        const found = await upstream(request, 'plots', `/api/plots/${encodeURIComponent(plotId)}`);
        if (found?.status === 404 || found?.status === 400) return failure(404, new AppError('PLOT_NOT_FOUND', 'Plot not found'));
        if (!found?.ok) throw new AppError('UPSTREAM_UNAVAILABLE', 'The share card is not available right now.');
        const plot = (await found.json()) as Plot;
        const version = shareCardVersion(plot);
        const png = await drawn(request, plot, version);
        return {
          status: 200,
          contentType: 'image/png',
          body: png,
          compress: false,
          // The versioned address never changes its picture; an old or missing version is answered with the current card.
          cacheControl: requested === version ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
          headers: [['cross-origin-resource-policy', 'cross-origin']],
          keepMs: CARD_MAX_AGE_MS,
        };
      } catch (error) {
        request.log.warn({ err: error }, 'a share card could not be built');
        const appError =
          error instanceof AppError ? error : new AppError('UPSTREAM_UNAVAILABLE', 'The share card is not available right now.');
        return failure(503, appError);
      }
    }

    app.get<{ Params: { file: string }; Querystring: { v?: unknown } }>(
      '/share-card/:file',
      {
        schema: { hide: true },
        config: { inlineRateLimit: { max: opts.rateLimitPerMinute, timeWindow: 60_000, countedIn: 'replica' }, writesOwnHead: true },
      },
      async (request, reply) => {
        const id = CARD_FILE.exec(request.params.file)?.[1];
        if (!id || !isPossiblePlotId(id)) throw new AppError('PLOT_NOT_FOUND', 'Plot not found');
        const plotId = id.toLowerCase();
        const requested = typeof request.query.v === 'string' && VERSION.test(request.query.v) ? request.query.v : '';
        await documents.serve(request, reply, `card:${plotId}:${requested}`, {
          tags: ['map', `plot:${plotId}`],
          build: () => buildCard(request, plotId, requested),
        });
      },
    );
  },
  { name: 'gateway-share-cards', dependencies: ['gateway-proxy', 'gateway-rendered-documents'] },
);
