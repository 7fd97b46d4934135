import type { sendOwnerLinkCommand } from '@pixel-atlas/contracts/queries';
import { TIER_SIZE, formatPrice, tierPlotLabel } from '@pixel-atlas/contracts/tiers';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { PrismaClient } from '../db.ts';
import type { Mailer } from './deliver-notifications.ts';

export type SendOwnerLinkRequest = z.output<typeof sendOwnerLinkCommand.request>;
export type OwnerLinkDelivery = z.output<typeof sendOwnerLinkCommand.reply>['delivery'];

/** What the notifications table keeps of the e-mail instead of the link (the token is never stored). */
export const OWNER_LINK_PLACEHOLDER = '[private owner link: sent, not kept]';

/** "28 November 2026 at 17:40 UTC": one clock for every reader of the receipt. */
const RECEIPT_DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/**
 * The buyer's receipt, right after the claim: what was paid, for which plot, when, the plot's page, and the owner
 * link. Pure. Without PUBLIC_ORIGIN the links are paths on the site.
 */
export function composeReceiptEmail(options: {
  request: SendOwnerLinkRequest;
  receipt: NonNullable<SendOwnerLinkRequest['receipt']>;
  siteName: string;
  publicOrigin?: string;
}): { subject: string; text: (link: string) => string; link: string } {
  const { request, receipt, siteName } = options;
  const origin = options.publicOrigin?.replace(/\/+$/, '') ?? '';
  const size = TIER_SIZE[receipt.tier];
  return {
    subject: `Your receipt from ${siteName}: '${request.displayName}', ${tierPlotLabel(receipt.tier)}`,
    link: `${origin}/manage/${request.token}`,
    text: (link) =>
      [
        'Hello,',
        '',
        `Thank you for claiming a plot on ${siteName}. This is your receipt.`,
        '',
        `Plot:      '${request.displayName}'`,
        `Tier:      ${tierPlotLabel(receipt.tier)} (${size}×${size} tiles)`,
        `Position:  (${request.x}, ${request.y})`,
        `Amount:    ${formatPrice(receipt.amountCents)} ${receipt.currency.toUpperCase()}`,
        `Date:      ${RECEIPT_DATE.format(new Date(receipt.paidAt))} UTC`,
        `Plot page: ${origin}/plot/${request.plotId}`,
        '',
        'Your private owner link. Open it to change your message, link and avatar, and to see how many people visit your plot (name, tier and position stay as bought):',
        '',
        link,
        '',
        'Keep it safe: anyone with this link can edit your plot. If you share it by mistake, open it and choose "Make a New Link". If you lose it, use "Lost your owner link?" on the site with this address.',
        '',
        `The ${siteName} team`,
      ].join('\n'),
  };
}

/** The e-mail with the owner's private link. Pure. Without PUBLIC_ORIGIN the link is the path on the site. */
export function composeOwnerLinkEmail(options: { request: SendOwnerLinkRequest; siteName: string; publicOrigin?: string }): {
  subject: string;
  text: (link: string) => string;
  link: string;
} {
  const { request, siteName } = options;
  if (request.receipt) return composeReceiptEmail({ ...options, receipt: request.receipt });
  const origin = options.publicOrigin?.replace(/\/+$/, '') ?? '';
  return {
    subject: `Your private link to manage your plot '${request.displayName}' on ${siteName}`,
    link: `${origin}/manage/${request.token}`,
    text: (link) =>
      [
        'Hello,',
        '',
        `Thank you for claiming '${request.displayName}' at (${request.x}, ${request.y}) on ${siteName}.`,
        '',
        'This is your private owner link. Open it to change your message, link and avatar, and to see how many people visit your plot:',
        '',
        link,
        '',
        'Keep it safe: anyone with this link can edit your plot. If you share it by mistake, open it and choose "Make a New Link".',
        '',
        `The ${siteName} team`,
      ].join('\n'),
  };
}

/**
 * Answers `sendOwnerLinkCommand`: sends the e-mail at once (the request is the only place the token exists; nothing
 * retries it from here), then records a notification row whose body holds a placeholder instead of the link. Without
 * SMTP the link is neither sent nor logged (other notices are logged in full when SMTP is off: this one would put a
 * working key to someone's plot in the log).
 */
export async function sendOwnerLink(options: {
  db: PrismaClient;
  mailer: Mailer;
  request: SendOwnerLinkRequest;
  site: { name: string; publicOrigin?: string };
  log: FastifyBaseLogger;
}): Promise<{ delivery: OwnerLinkDelivery }> {
  const { request, mailer } = options;
  const email = composeOwnerLinkEmail({ request, siteName: options.site.name, publicOrigin: options.site.publicOrigin });
  let delivery: OwnerLinkDelivery = 'not-configured';
  let lastError: string | null = null;
  if (mailer) {
    try {
      await mailer.send({ to: request.email, subject: email.subject, text: email.text(email.link) });
      delivery = 'sent';
    } catch (error) {
      delivery = 'failed';
      lastError = (error as Error).message?.slice(0, 500) ?? 'send failed';
    }
  }
  await options.db.notification.create({
    data: {
      plotId: request.plotId,
      email: request.email,
      kind: request.receipt ? 'receipt' : 'owner-link',
      subject: email.subject,
      body: email.text(OWNER_LINK_PLACEHOLDER),
      status: delivery === 'sent' ? 'sent' : delivery === 'failed' ? 'failed' : 'logged',
      attempts: mailer ? 1 : 0,
      lastError,
      sentAt: delivery === 'sent' ? new Date() : null,
    },
  });
  options.log.info(
    { plotId: request.plotId, delivery },
    delivery === 'not-configured' ? 'owner link not e-mailed: SMTP_URL is not set' : 'owner link e-mail',
  );
  return { delivery };
}
