import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import {
  editPlotContentRequestSchema,
  editPlotContentResponseSchema,
  managePageResponseSchema,
  manageTokenParamsSchema,
  replaceAvatarRequestSchema,
  replaceAvatarResponseSchema,
  revokeManageTokenResponseSchema,
  rotateManageTokenResponseSchema,
} from '@pixel-atlas/contracts/manage';
import { plotIdParamsSchema } from '@pixel-atlas/contracts/plots';
import { requireAdmin } from '@pixel-atlas/service-kit/internal-auth';
import { ADMIN_SESSION_SECURITY } from '@pixel-atlas/service-kit/openapi';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DecoderBusyError, type AvatarDecodeSlots } from '../avatar-decode-slots.ts';
import { editPlotContent } from '../domain/edit-plot-content.ts';
import { getManagePage } from '../domain/get-manage-page.ts';
import { replacePlotAvatar } from '../domain/replace-plot-avatar.ts';
import { revokeManageToken } from '../domain/revoke-manage-token.ts';
import { rotateManageToken } from '../domain/rotate-manage-token.ts';
import type { PrismaClient } from '../db.ts';
import { rememberOwnedPlot } from '../owner-cookie.ts';
import type { ScreenWordsSource } from '../domain/screen-claim-content.ts';

export interface ManageRoutesOptions {
  /** The service's own client (the app's `db`). */
  db: PrismaClient;
  /** Owner-link requests per client address per window: a token cannot be guessed (256 bits), and cannot be tried fast either. */
  rateLimit: { max: number; timeWindow: number };
  screenTimeoutMs: number;
  /** Served over https: the owner cookie is Secure. */
  secureCookie: boolean;
  /** This replica's copy of moderation's word list. */
  screenWords?: ScreenWordsSource;
  maxInputPixels: number;
  decodeSlots: AvatarDecodeSlots;
  /** After the plot's public content changed on this replica: drop the list cache. */
  onChanged: () => void;
}

/** The avatar travels as a data URL, as in a claim. */
const AVATAR_BODY_LIMIT = 2 * 1024 * 1024;

/** Answers that carry an owner's token or plot state: never cached, never sent on as a Referer. */
function privateAnswer(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex, nofollow');
}

export async function manageRoutes(app: FastifyInstance, opts: ManageRoutesOptions) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const config = { rateLimit: opts.rateLimit };
  const tags = ['manage'];
  const refused = { 400: errorBodySchema, 404: errorBodySchema, 429: errorBodySchema };
  app.addHook('onSend', async (_request, reply) => privateAnswer(reply));

  routes.get(
    '/api/manage/:token',
    {
      config,
      schema: {
        summary: "The owner's page: the plot, a held edit, 30 days of counts, the link's health",
        operationId: 'getManagePage',
        tags,
        params: manageTokenParamsSchema,
        response: { 200: managePageResponseSchema, ...refused },
      },
    },
    async (request, reply) => {
      const page = await getManagePage({ db: opts.db, token: request.params.token });
      // Whoever opens the owner page owns the plot: this browser's own visits are not counted (owner-cookie.ts).
      rememberOwnedPlot(request, reply, { plotId: page.plot.id, secure: opts.secureCookie });
      return page;
    },
  );

  routes.patch(
    '/api/manage/:token',
    {
      config,
      schema: {
        summary: 'Change the message and link: screened like a claim; a hit waits for review and the plot keeps its content',
        operationId: 'editPlotContent',
        tags,
        params: manageTokenParamsSchema,
        body: editPlotContentRequestSchema,
        response: { 200: editPlotContentResponseSchema, 409: errorBodySchema, ...refused },
      },
    },
    async (request) => {
      const result = await editPlotContent({
        db: opts.db,
        bus: app.bus,
        token: request.params.token,
        edit: request.body,
        requestId: request.id,
        log: request.log,
        screenTimeoutMs: opts.screenTimeoutMs,
        screenWords: opts.screenWords,
      });
      request.log.info({ plotId: result.plot.id, status: result.status, screenedBy: result.screenedBy }, 'owner edited a plot');
      if (result.status !== 'unchanged') app.outbox.kick();
      if (result.status === 'applied') opts.onChanged();
      const status = result.status === 'under_review' ? ('under_review' as const) : ('applied' as const);
      return { plot: result.plot, status, ...(result.warning && { warning: result.warning }) };
    },
  );

  routes.put(
    '/api/manage/:token/avatar',
    {
      config,
      bodyLimit: AVATAR_BODY_LIMIT,
      schema: {
        summary: 'Replace the avatar: the same checks and re-encode as a claim',
        operationId: 'replacePlotAvatar',
        tags,
        params: manageTokenParamsSchema,
        body: replaceAvatarRequestSchema,
        response: { 200: replaceAvatarResponseSchema, 409: errorBodySchema, 413: errorBodySchema, 503: errorBodySchema, ...refused },
      },
    },
    async (request, reply) => {
      try {
        const plot = await replacePlotAvatar({
          db: opts.db,
          token: request.params.token,
          avatarDataUrl: request.body.avatar_url,
          maxInputPixels: opts.maxInputPixels,
          decodeSlots: opts.decodeSlots,
          requestId: request.id,
        });
        request.log.info({ plotId: plot.id }, 'owner replaced an avatar');
        app.outbox.kick();
        opts.onChanged();
        return { plot };
      } catch (error) {
        if (error instanceof DecoderBusyError) {
          return reply
            .status(503)
            .header('retry-after', String(error.retryAfterSeconds))
            .send({ error: { code: error.code, message: error.message } });
        }
        throw error;
      }
    },
  );

  routes.post(
    '/api/manage/:token/rotate',
    {
      config,
      schema: {
        summary: 'Replace the owner link with a new one (the old one stops working); the new token is shown once',
        operationId: 'rotateManageLink',
        tags,
        params: manageTokenParamsSchema,
        response: { 200: rotateManageTokenResponseSchema, ...refused },
      },
    },
    async (request) => {
      const { token, plotId } = await rotateManageToken({ db: opts.db, token: request.params.token });
      request.log.info({ plotId }, 'owner rotated their link');
      return { token };
    },
  );

  routes.post(
    '/api/admin/plots/:id/revoke-manage-link',
    {
      preHandler: requireAdmin,
      schema: {
        summary: "Revoke a plot's owner link (no token opens it afterwards)",
        operationId: 'revokeManageLink',
        tags: ['admin', 'manage'],
        security: ADMIN_SESSION_SECURITY,
        params: plotIdParamsSchema,
        response: { 200: revokeManageTokenResponseSchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const result = await revokeManageToken({ db: opts.db, plotId: request.params.id, admin: request.adminUser! });
      request.log.info({ plotId: result.plotId, revoked: result.revoked, admin: request.adminUser }, 'admin revoked an owner link');
      return result;
    },
  );
}
