import { createHash } from 'node:crypto';
import {
  plotNeighboursSchema,
  regionListSchema,
  regionPageQuerySchema,
  regionPageSchema,
  regionSlugParamsSchema,
} from '@pixel-atlas/contracts/directory';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { etagMatches } from '@pixel-atlas/service-kit/cached-json';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listPlotNeighbours } from '../domain/list-plot-neighbours.ts';
import { listRegionPlots } from '../domain/list-region-plots.ts';
import { listRegions } from '../domain/list-regions.ts';
import type { PrismaClient } from '../db.ts';

/**
 * Public and shared alike: a CDN may keep an answer a second and serve it stale while it asks again; a browser asks
 * every time and gets a 304 while nothing changed (the gateway's rendered pages carry the same).
 */
export const DIRECTORY_CACHE_CONTROL = 'public, max-age=0, s-maxage=1, stale-while-revalidate=60';

const notModified = z.null().describe('Not modified');

/**
 * Answers a document with a weak ETag of its JSON, or 304 when If-None-Match names it. The JSON is written here (a
 * string skips Fastify's serialiser); these documents are a few KB and change with any plot of theirs, so they are
 * built per request and left for the gateway to compress.
 */
function sendWithEtag(request: FastifyRequest, reply: FastifyReply, document: unknown): FastifyReply {
  const json = JSON.stringify(document);
  const etag = `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag).header('cache-control', DIRECTORY_CACHE_CONTROL);
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.status(304).send();
  return reply.header('content-type', 'application/json; charset=utf-8').send(json);
}

/** The directory a crawler walks: the regions, a region's plots page by page, and a plot's neighbours on the map. */
export async function directoryRoutes(app: FastifyInstance, opts: { db: PrismaClient }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/api/regions',
    {
      schema: {
        summary: 'The regions of the map with their public plot counts (the 13 in order, then Uncharted when it has plots)',
        operationId: 'listRegions',
        tags: ['directory'],
        response: { 200: regionListSchema, 304: notModified },
      },
    },
    async (request, reply) => sendWithEtag(request, reply, await listRegions({ db: opts.db })),
  );

  routes.get(
    '/api/regions/:slug',
    {
      schema: {
        summary: "One page of a region's public plots, ordered by y, then x",
        description:
          'Pages hold DIRECTORY_PAGE_SIZE (48) plots. Page 1 of an empty region is an empty page; an unknown region or a page ' +
          'past `pageCount` is 404.',
        operationId: 'getRegionPage',
        tags: ['directory'],
        params: regionSlugParamsSchema,
        querystring: regionPageQuerySchema,
        response: { 200: regionPageSchema, 304: notModified, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) =>
      sendWithEtag(request, reply, await listRegionPlots({ db: opts.db, slug: request.params.slug, page: request.query.page })),
  );

  routes.get(
    '/api/plots/:id/neighbours',
    {
      schema: {
        summary: 'The public plots nearest to a plot on the map (up to 6, nearest first, the plot itself excluded)',
        operationId: 'listPlotNeighbours',
        tags: ['directory', 'plots'],
        params: z.object({ id: z.string().max(100) }),
        response: { 200: plotNeighboursSchema, 304: notModified, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => sendWithEtag(request, reply, await listPlotNeighbours({ db: opts.db, id: request.params.id })),
  );
}
