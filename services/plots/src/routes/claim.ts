import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { claimPlotRequestSchema, claimPlotResponseSchema } from '@pixel-atlas/contracts/plots';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DecoderBusyError, type AvatarDecodeSlots } from '../avatar-decode-slots.ts';
import type { ClaimBatches } from '../domain/claim-batches.ts';
import { claimPlot } from '../domain/claim-plot.ts';
import { sendClaimReceipt } from '../domain/send-claim-receipt.ts';
import { rememberOwnedPlot } from '../owner-cookie.ts';
import type { PrismaClient } from '../db.ts';
import type { LandSource } from '../domain/footprints.ts';
import type { ScreenWordsSource } from '../domain/screen-claim-content.ts';

export interface ClaimRoutesOptions {
  /** The service's own client (the app's `db`). */
  db: PrismaClient;
  maxInputPixels: number;
  entitlementTimeoutMs: number;
  screenTimeoutMs: number;
  maxAttemptsPerSession: number;
  /** Served over https: the owner cookie is Secure. */
  secureCookie: boolean;
  decodeSlots: AvatarDecodeSlots;
  /** This replica's batches of the claim's statements. */
  batches: ClaimBatches;
  /** This replica's copy of the land mask. */
  land?: LandSource;
  /** This replica's copy of moderation's word list. */
  screenWords?: ScreenWordsSource;
  /** After a plot was written: drop the list cache, count it. */
  onClaimed: (result: { tier: string; screenedBy: string; held: boolean }) => void;
}

/** The avatar travels inside the JSON as a data URL (≤ 1 MiB decoded ≈ 1.4 MB of base64). */
const CLAIM_BODY_LIMIT = 2 * 1024 * 1024;

export async function claimRoutes(app: FastifyInstance, opts: ClaimRoutesOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/claim-plot',
    {
      bodyLimit: CLAIM_BODY_LIMIT,
      schema: {
        summary: 'Claim the plot a paid checkout session bought',
        operationId: 'claimPlot',
        tags: ['plots'],
        body: claimPlotRequestSchema,
        response: {
          200: claimPlotResponseSchema.describe('The same claim was already made with this session: its plot'),
          201: claimPlotResponseSchema,
          400: errorBodySchema,
          402: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          413: errorBodySchema,
          429: errorBodySchema,
          502: errorBodySchema,
          503: errorBodySchema,
          504: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      let result;
      try {
        result = await claimPlot({
          db: opts.db,
          batches: opts.batches,
          bus: app.bus,
          claim: request.body,
          clientIp: request.clientIp || null,
          requestId: request.id,
          log: request.log,
          maxInputPixels: opts.maxInputPixels,
          entitlementTimeoutMs: opts.entitlementTimeoutMs,
          screenTimeoutMs: opts.screenTimeoutMs,
          maxAttemptsPerSession: opts.maxAttemptsPerSession,
          decodeSlots: opts.decodeSlots,
          land: opts.land,
          screenWords: opts.screenWords,
        });
      } catch (error) {
        // Answered here: the error handler masks every 5xx message, and this one tells the buyer to retry.
        if (error instanceof DecoderBusyError) {
          request.log.warn({ sessionId: request.body.stripeSessionId }, 'avatar decoders busy: claim refused with 503');
          return reply
            .status(503)
            .header('retry-after', String(error.retryAfterSeconds))
            .send({ error: { code: error.code, message: error.message } });
        }
        throw error;
      }
      if (result.manageToken && result.notificationEmail) {
        // After the commit, beside the answer: the buyer never waits for SMTP.
        void sendClaimReceipt({
          db: opts.db,
          bus: app.bus,
          log: request.log,
          plot: result.plot,
          sessionId: request.body.stripeSessionId,
          email: result.notificationEmail,
          token: result.manageToken,
        });
      }
      if (result.created) {
        opts.onClaimed({
          tier: result.tier,
          screenedBy: result.screening?.screenedBy ?? 'moderation',
          held: result.screening?.held ?? false,
        });
        app.outbox.kick();
      }
      // The browser that receives the owner's token owns the plot: its own visits are not counted (owner-cookie.ts).
      if (result.manageToken) rememberOwnedPlot(request, reply, { plotId: result.plot.id, secure: opts.secureCookie });
      const body = {
        plot: result.plot,
        ...(result.warning && { warning: result.warning }),
        ...(result.manageToken && { manage_token: result.manageToken }),
      };
      return reply.status(result.created ? 201 : 200).send(body);
    },
  );
}
