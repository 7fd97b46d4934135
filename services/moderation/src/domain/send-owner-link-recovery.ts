import type { sendOwnerLinkRecoveryCommand } from '@pixel-atlas/contracts/queries';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { PrismaClient } from '../db.ts';
import type { Mailer } from './deliver-notifications.ts';
import { OWNER_LINK_PLACEHOLDER, type OwnerLinkDelivery } from './send-owner-link.ts';

export type SendOwnerLinkRecoveryRequest = z.output<typeof sendOwnerLinkRecoveryCommand.request>;

/**
 * "Lost your owner link?": one e-mail with a new owner link for each plot bought with the address. Pure; `links`
 * renders each plot's link (the real one to send, the placeholder to keep). Without PUBLIC_ORIGIN links are paths.
 */
export function composeOwnerLinkRecoveryEmail(options: {
  request: SendOwnerLinkRecoveryRequest;
  siteName: string;
  publicOrigin?: string;
}): {
  subject: string;
  text: (link: (token: string) => string) => string;
  link: (token: string) => string;
} {
  const { request, siteName } = options;
  const origin = options.publicOrigin?.replace(/\/+$/, '') ?? '';
  const many = request.plots.length > 1;
  return {
    subject: many ? `Your owner links on ${siteName}` : `Your owner link for '${request.plots[0]!.displayName}' on ${siteName}`,
    link: (token) => `${origin}/manage/${token}`,
    text: (link) =>
      [
        'Hello,',
        '',
        `Someone (we hope you) asked ${siteName} for the owner link${many ? 's' : ''} of the plot${many ? 's' : ''} bought with this address. Here ${many ? 'they are' : 'it is'}:`,
        '',
        ...request.plots.flatMap((plot) => [`'${plot.displayName}' at (${plot.x}, ${plot.y}):`, link(plot.token), '']),
        `Each link is new: it replaces the plot's old owner link, which no longer works. Open it to change your message, link and avatar and to see your plot's visits.`,
        '',
        'Keep it safe: anyone with the link can edit your plot. If you did not ask for this, you can ignore this e-mail and use the link above from now on.',
        '',
        `The ${siteName} team`,
      ].join('\n'),
  };
}

/**
 * Answers `sendOwnerLinkRecoveryCommand`: sends at once (the request is the only place the new tokens exist), then
 * records one notification row per plot with a placeholder instead of the links. Without SMTP nothing is sent and the
 * links are not logged: plots then keeps the old links.
 */
export async function sendOwnerLinkRecovery(options: {
  db: PrismaClient;
  mailer: Mailer;
  request: SendOwnerLinkRecoveryRequest;
  site: { name: string; publicOrigin?: string };
  log: FastifyBaseLogger;
}): Promise<{ delivery: OwnerLinkDelivery }> {
  const { request, mailer } = options;
  const email = composeOwnerLinkRecoveryEmail({ request, siteName: options.site.name, publicOrigin: options.site.publicOrigin });
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
  const kept = email.text(() => OWNER_LINK_PLACEHOLDER);
  await options.db.notification.createMany({
    data: request.plots.map((plot) => ({
      plotId: plot.plotId,
      email: request.email,
      kind: 'owner-link-recovery',
      subject: email.subject,
      body: kept,
      status: delivery === 'sent' ? 'sent' : delivery === 'failed' ? 'failed' : 'logged',
      attempts: mailer ? 1 : 0,
      lastError,
      sentAt: delivery === 'sent' ? new Date() : null,
    })),
  });
  options.log.info(
    { plots: request.plots.length, delivery },
    delivery === 'not-configured' ? 'owner link recovery not e-mailed: SMTP_URL is not set' : 'owner link recovery e-mail',
  );
  return { delivery };
}
