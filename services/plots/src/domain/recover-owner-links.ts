import { sendOwnerLinkRecoveryCommand } from '@pixel-atlas/contracts/queries';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { SCHEMA, type PrismaClient } from '../db.ts';
import { newManageToken } from './manage-token.ts';

export interface RecoverOwnerLinksOptions {
  db: PrismaClient;
  bus: EventBus;
  log: FastifyBaseLogger;
  email: string;
  /** Tries of the e-mail in all (moderation restarting, SMTP failing), spaced by `retryDelayMs` × the try number. */
  attempts?: number;
  retryDelayMs?: number;
}

export type RecoveryOutcome = 'none' | 'sent' | 'not-configured' | 'failed';

/** At most this many plots in one e-mail (one buyer's many plots; the command's bound). */
const MAX_PLOTS = 100;

interface OwnedPlot {
  id: string;
  display_name: string;
  x: number;
  y: number;
  token_hash: string;
}

/**
 * "Lost your owner link?": every live plot bought with the address (compared without case) gets a new owner link, and
 * moderation e-mails them all to that address. Only the hashes are kept, so an old link cannot be sent again: a new
 * one is made for each plot, and it replaces the old one only once the e-mail went out (a recovery that could not
 * be e-mailed leaves every link as it was). A plot whose link an admin revoked gets none. The caller answers the
 * asker the same whatever happens here: this runs after the answer.
 */
export async function recoverOwnerLinks(options: RecoverOwnerLinksOptions): Promise<RecoveryOutcome> {
  const { db, log, attempts = 3, retryDelayMs = 5_000 } = options;
  const owned = await db.$queryRawUnsafe<OwnedPlot[]>(
    `SELECT "p"."id"::text, "p"."display_name", "p"."x", "p"."y", "t"."token_hash"
       FROM "${SCHEMA}"."plots" AS "p" JOIN "${SCHEMA}"."plot_manage_tokens" AS "t" ON "t"."plot_id" = "p"."id"
      WHERE lower("p"."notification_email") = lower($1) AND "p"."notification_email" IS NOT NULL
        AND "p"."removed_at" IS NULL AND "t"."token_hash" IS NOT NULL AND "t"."revoked_at" IS NULL
      ORDER BY "p"."created_at" LIMIT ${MAX_PLOTS}`,
    options.email,
  );
  if (!owned.length) {
    log.info('owner link recovery: no plot bought with that address, nothing sent');
    return 'none';
  }
  const fresh = owned.map((plot) => ({ plot, ...newManageToken() }));
  const request = {
    email: options.email,
    plots: fresh.map(({ plot, token }) => ({ plotId: plot.id, displayName: plot.display_name, x: plot.x, y: plot.y, token })),
  };
  const delivery = await askToSend(options, request, attempts, retryDelayMs);
  if (delivery !== 'sent') {
    log.warn({ plots: owned.length, delivery }, 'owner link recovery not e-mailed: the old links stay');
    return delivery;
  }
  for (const { plot, tokenHash } of fresh) {
    // Conditional on the hash we read: an owner who made a new link meanwhile keeps theirs.
    await db.plotManageToken.updateMany({
      where: { plotId: plot.id, tokenHash: plot.token_hash },
      data: { tokenHash, issuedAt: new Date() },
    });
  }
  log.info({ plots: owned.length }, 'owner links recovered and e-mailed');
  return 'sent';
}

async function askToSend(
  options: RecoverOwnerLinksOptions,
  request: z.input<typeof sendOwnerLinkRecoveryCommand.request>,
  attempts: number,
  retryDelayMs: number,
): Promise<'sent' | 'not-configured' | 'failed'> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const { delivery } = await query(options.bus, sendOwnerLinkRecoveryCommand, request, { timeoutMs: 45_000 });
      if (delivery !== 'failed') return delivery;
      options.log.warn({ attempt }, 'the owner link recovery e-mail failed at the SMTP server');
    } catch (error) {
      options.log.warn({ err: error, attempt }, 'moderation did not take the owner link recovery e-mail');
    }
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt).unref());
  }
  return 'failed';
}
