import { createHash } from 'node:crypto';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { plotListCompactSchema } from '@pixel-atlas/contracts/plot-list-compact';
import { plotListQuerySchema, plotListResponseSchema, plotSchema, userPlotsResponseSchema } from '@pixel-atlas/contracts/plots';
import { etagMatches, sendEncodedJson } from '@pixel-atlas/service-kit/cached-json';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getPlot, getPlotAvatar } from '../domain/get-plot.ts';
import { avatarContentType, createRenditionCache } from '../domain/process-avatar.ts';
import { listUserPlots } from '../domain/list-user-plots.ts';
import type { PlotListCache } from '../plot-list-cache.ts';
import type { PrismaClient } from '../db.ts';

const idParams = z.object({ id: z.string().max(100) });

/** Only the URL of the avatar as it is now may be kept for good: that URL changes whenever the avatar does. */
const AVATAR_CURRENT_CACHE = 'public, max-age=31536000, immutable';
/**
 * A stale (`?v=1` after a second replacement) or unknown (`?v=99`, `?v=x`) version is answered with the current bytes,
 * which that URL must not keep for a year: a version that becomes current later would show them instead of its own.
 */
const AVATAR_OTHER_CACHE = 'public, max-age=60';

/** `?v=` as the plot's `avatar_url` writes it: absent at version 0, the number otherwise. */
function isCurrentAvatarVersion(v: string | string[] | undefined, version: number): boolean {
  if (v === undefined) return version === 0;
  return typeof v === 'string' && /^\d{1,9}$/.test(v) && Number(v) === version;
}

export async function plotRoutes(app: FastifyInstance, opts: { db: PrismaClient; cache: PlotListCache }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Untyped on purpose: these two send ready-made bytes (a Buffer skips the serializer); the schemas document them.
  app.get<{ Querystring: z.infer<typeof plotListQuerySchema> }>(
    '/api/plots',
    {
      schema: {
        summary: 'Every visible plot (no image bytes): from memory, with ETag/304 and gzip/br',
        operationId: 'listPlots',
        description:
          "Without `format`: the spec's plot list. With `format=compact`: the same plots column by column (PlotListCompact, " +
          'versioned by its `version` field), a fraction of the bytes; the web app reads this one.',
        tags: ['plots'],
        querystring: plotListQuerySchema,
        response: {
          200: z.union([plotListResponseSchema, plotListCompactSchema]),
          304: z.null().describe('Not modified'),
          400: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const list = await opts.cache.get();
      return sendEncodedJson(request, reply, request.query.format === 'compact' ? list.compact : list, { cacheControl: 'no-cache' });
    },
  );

  routes.get(
    '/api/plots/:id',
    {
      schema: {
        summary: 'One plot',
        operationId: 'getPlot',
        tags: ['plots'],
        params: idParams,
        response: { 200: plotSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => getPlot({ db: opts.db, id: request.params.id }),
  );

  // Every plot's small one fits (the grid holds at most 8100); medium ones are asked for only close up.
  const renditions = { small: createRenditionCache('small', 4096), medium: createRenditionCache('medium', 1024) };
  app.get<{ Params: { id: string }; Querystring: { v?: string | string[]; size?: string | string[] } }>(
    '/api/plots/:id/avatar',
    {
      schema: {
        // ?size=medium: at most 512×512; ?size=large: the stored one, at most 1152×1152 (a Premium plot at the phone's
        // highest zoom on a 2× screen). Both WebP (image/webp), or PNG for avatars stored before WebP; the map picks
        // the smallest that its box does not enlarge much. Outside the schema, as ?v= is: the public document keeps
        // describing the default, small rendition.
        summary: "A plot's avatar: a square PNG of at most 128×128, cached for good (a replaced avatar gets a new URL: ?v=N)",
        description:
          'The map also asks for bigger renditions of big plots close up: `size=medium` (at most 512×512) and `size=large` ' +
          '(the stored avatar, at most 1152×1152), both image/webp, or image/png for avatars stored before WebP.',
        operationId: 'getPlotAvatar',
        tags: ['plots'],
        params: idParams,
        response: { 200: z.any().describe('image/png, square, at most 128×128'), 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { image: stored, version } = await getPlotAvatar({ db: opts.db, id });
      const { size } = request.query;
      const rendition = size === 'large' ? null : size === 'medium' ? 'medium' : 'small';
      const image = rendition ? ((await renditions[rendition].get(`${id}:${version}`, stored)) ?? stored) : stored;
      // From the bytes: an owner may replace the avatar (its URL then carries a new ?v=, the ETag a new hash).
      const etag = `"avatar-${createHash('sha256').update(image).digest('base64url').slice(0, 22)}"`;
      const cacheControl = isCurrentAvatarVersion(request.query.v, version) ? AVATAR_CURRENT_CACHE : AVATAR_OTHER_CACHE;
      reply.header('etag', etag).header('cache-control', cacheControl).header('x-content-type-options', 'nosniff');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply.header('content-type', avatarContentType(image)).send(image);
    },
  );

  routes.get(
    '/api/users/:username/plots',
    {
      schema: {
        summary: "A user's page: visible plots whose display name matches, ignoring case",
        operationId: 'listUserPlots',
        tags: ['plots'],
        // A NUL cannot be in any name (PostgreSQL cannot store it) and would fail the query itself: 400, not a 500.
        params: z.object({
          username: z
            .string()
            .min(1)
            .max(100)
            .refine((name) => !name.includes('\u0000'), "User name can't contain control characters"),
        }),
        response: { 200: userPlotsResponseSchema, 400: errorBodySchema },
      },
    },
    async (request) => listUserPlots({ db: opts.db, username: request.params.username }),
  );
}
