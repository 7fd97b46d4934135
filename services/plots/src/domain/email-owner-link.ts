import { sendOwnerLinkCommand } from '@pixel-atlas/contracts/queries';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { query } from '@pixel-atlas/service-kit/rpc';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';

export type OwnerLinkReceipt = NonNullable<z.input<typeof sendOwnerLinkCommand.request>['receipt']>;

export interface EmailOwnerLinkOptions {
  bus: EventBus;
  log: FastifyBaseLogger;
  plot: { id: string; display_name: string; x: number; y: number };
  email: string;
  token: string;
  /** With the payment's facts, the e-mail is the buyer's receipt (which carries the owner link). */
  receipt?: OwnerLinkReceipt;
  /** Tries in all (SMTP down, moderation restarting), spaced by `retryDelayMs` × the try number. */
  attempts?: number;
  retryDelayMs?: number;
}

/**
 * Asks moderation (the mailer's owner) to e-mail a new plot's owner link, after the claim committed and without
 * holding up its answer. The token exists only in this process's memory and in that one request: no event, no
 * outbox row, no log line carries it. The price: a claim whose e-mail could not go out within the tries (moderation
 * away, SMTP failing) is not e-mailed later; its owner still saw the link on the celebration and the plot page.
 */
export async function emailOwnerLink(options: EmailOwnerLinkOptions): Promise<'sent' | 'not-configured' | 'failed'> {
  const { plot, attempts = 3, retryDelayMs = 5_000 } = options;
  const request = {
    plotId: plot.id,
    email: options.email,
    displayName: plot.display_name,
    x: plot.x,
    y: plot.y,
    token: options.token,
    ...(options.receipt && { receipt: options.receipt }),
  };
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const { delivery } = await query(options.bus, sendOwnerLinkCommand, request, { timeoutMs: 45_000 });
      if (delivery !== 'failed') return delivery;
      options.log.warn({ plotId: plot.id, attempt }, 'the owner link e-mail failed at the SMTP server');
    } catch (error) {
      options.log.warn({ err: error, plotId: plot.id, attempt }, 'moderation did not take the owner link e-mail');
    }
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, retryDelayMs * attempt).unref());
  }
  options.log.error({ plotId: plot.id }, 'the owner link was not e-mailed (the owner saw it after the claim)');
  return 'failed';
}
