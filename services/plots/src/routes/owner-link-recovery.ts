import { createHash } from 'node:crypto';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import {
  OWNER_LINK_RECOVERY_MESSAGE,
  recoverOwnerLinksRequestSchema,
  recoverOwnerLinksResponseSchema,
} from '@pixel-atlas/contracts/manage';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { recoverOwnerLinks, type RecoveryOutcome } from '../domain/recover-owner-links.ts';
import type { PrismaClient } from '../db.ts';

export interface OwnerLinkRecoveryRoutesOptions {
  db: PrismaClient;
  /** Requests per client (clientKey: IPv6 by /64) per window, then 429. */
  rateLimit: { max: number; timeWindow: number };
  /** E-mails per address per window; past it the answer is the same and nothing is sent (the mailbox is not flooded). */
  perAddress: { max: number; timeWindow: number };
  /** After the work behind an answer ended (tests and metrics). */
  onOutcome?: (outcome: RecoveryOutcome | 'address-limited') => void;
}

/** The per-address count is keyed by a hash: the rate-limit table never holds the address. */
const addressKey = (email: string) => `owner-link-recovery|${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;

/**
 * POST /api/manage/recover ("Lost your owner link?"): one answer (202) whether or not the address bought a plot, given
 * before any lookup, so neither its words nor its timing tell who bought. Under /api/manage/ on purpose: the gateway
 * refuses cross-site writes there and keeps such answers out of caches.
 */
export async function ownerLinkRecoveryRoutes(app: FastifyInstance, opts: OwnerLinkRecoveryRoutesOptions) {
  // Made at the first request: the kit's rate-limit plugin (and its store) is there by then, not when only describing.
  let perAddress: ReturnType<FastifyInstance['createRateLimit']> | undefined;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/manage/recover',
    {
      config: { rateLimit: opts.rateLimit },
      schema: {
        summary: 'E-mail new owner links for every plot bought with an address; the same answer whether or not it bought one',
        operationId: 'recoverOwnerLinks',
        tags: ['manage'],
        body: recoverOwnerLinksRequestSchema,
        response: { 202: recoverOwnerLinksResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      perAddress ??= app.createRateLimit({
        max: opts.perAddress.max,
        timeWindow: opts.perAddress.timeWindow,
        keyGenerator: (req) => addressKey((req.body as { email: string }).email),
      });
      const limit = await perAddress(request);
      const log = request.log;
      // isAllowed is the plugin's allow-list answer; isExceeded is the count past max.
      if (!limit.isAllowed && limit.isExceeded) {
        log.info('owner link recovery: this address asked too often, nothing sent');
        opts.onOutcome?.('address-limited');
      } else {
        void recoverOwnerLinks({ db: opts.db, bus: app.bus, log, email: request.body.email }).then(
          (outcome) => opts.onOutcome?.(outcome),
          (error: unknown) => {
            log.error({ err: error }, 'owner link recovery failed');
            opts.onOutcome?.('failed');
          },
        );
      }
      return reply.status(202).header('cache-control', 'no-store').send({ message: OWNER_LINK_RECOVERY_MESSAGE });
    },
  );
}
