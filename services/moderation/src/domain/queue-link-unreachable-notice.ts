import type { EventData } from '@pixel-atlas/contracts/events';
import type { Tx } from '../db.ts';
import type { OwnerEmail } from './compose-owner-email.ts';

export interface LinkUnreachableEmailOptions {
  notice: EventData<'plots.link.unreachable'>;
  siteName: string;
  publicOrigin?: string;
}

/** The plain-words e-mail telling an owner their plot's link has stopped answering. Pure. */
export function composeLinkUnreachableEmail({ notice, siteName, publicOrigin }: LinkUnreachableEmailOptions): OwnerEmail {
  const origin = publicOrigin?.replace(/\/+$/, '');
  const since = new Date(notice.failingSince).toUTCString().replace(/ \d\d:\d\d:\d\d GMT$/, '');
  return {
    subject: `The link on your plot '${notice.displayName}' seems to be down`,
    text: [
      'Hello,',
      '',
      `We regularly check the link on your plot '${notice.displayName}' at (${notice.x}, ${notice.y}) on ${siteName}${origin ? ` (${origin}/plot/${notice.plotId})` : ''}:`,
      '',
      `  ${notice.link}`,
      '',
      `It has not answered since ${since}: ${notice.consecutiveFailures} checks in a row failed${notice.lastError ? ` (the last one: ${notice.lastError})` : ''}.`,
      'Your plot keeps the link and nothing changes for visitors; we only want you to know, since a broken link sends them nowhere.',
      '',
      "If your site has moved, you can change the link from your plot's owner page (the private link you received when you claimed the plot). Once the link works again, we notice it by ourselves.",
      '',
      `The ${siteName} team`,
    ].join('\n'),
  };
}

export interface QueueLinkUnreachableNoticeOptions extends LinkUnreachableEmailOptions {
  tx: Tx;
}

/**
 * Applies `plots.link.unreachable`: a pending e-mail to the owner when the claim left an address (the notifier
 * delivers it after the commit, like decision e-mails). Without an address there is no one to tell: the owner
 * page and the admin's link-health list still show it.
 */
export async function queueLinkUnreachableNotice({
  tx,
  notice,
  siteName,
  publicOrigin,
}: QueueLinkUnreachableNoticeOptions): Promise<'queued' | 'no-address'> {
  const contact = await tx.plotContact.findUnique({ where: { plotId: notice.plotId } });
  if (!contact) return 'no-address';
  const email = composeLinkUnreachableEmail({ notice, siteName, publicOrigin });
  await tx.notification.create({
    data: {
      plotId: notice.plotId,
      auditId: null,
      email: contact.notificationEmail,
      kind: 'link-unreachable',
      subject: email.subject,
      body: email.text,
    },
  });
  return 'queued';
}
