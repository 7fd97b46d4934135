import type { sendOwnerLinkCommand } from '@pixel-atlas/contracts/queries';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { PrismaClient } from '../db.ts';
import type { Mailer } from './deliver-notifications.ts';

export type SendOwnerLinkRequest = z.output<typeof sendOwnerLinkCommand.request>;
export type OwnerLinkDelivery = z.output<typeof sendOwnerLinkCommand.reply>['delivery'];

/** What the notifications table keeps of the e-mail instead of the link (the token is never stored). */
export const OWNER_LINK_PLACEHOLDER = '[private owner link: sent, not kept]';

/** The e-mail with the owner's private link. Pure. Without PUBLIC_ORIGIN the link is the path on the site. */
export function composeOwnerLinkEmail(options: { request: SendOwnerLinkRequest; siteName: string; publicOrigin?: string }): {
  subject: string;
  text: (link: string) => string;
  link: string;
} {
  const { request, siteName } = options;
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
      kind: 'owner-link',
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
