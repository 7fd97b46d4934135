export type Decision = 'approved' | 'rejected';

export interface ComposeOwnerEmailOptions {
  decision: Decision;
  plot: { plotId: string; displayName: string; x: number; y: number };
  siteName: string;
  /** e.g. https://atlas.example.com; without it the e-mail names the pages instead of linking them. */
  publicOrigin?: string;
}

export interface OwnerEmail {
  subject: string;
  text: string;
}

/** The plain-words e-mail telling a plot's owner what the review decided. Pure. */
export function composeOwnerEmail({ decision, plot, siteName, publicOrigin }: ComposeOwnerEmailOptions): OwnerEmail {
  const origin = publicOrigin?.replace(/\/+$/, '');
  const name = plot.displayName;
  const where = `(${plot.x}, ${plot.y})`;
  if (decision === 'approved') {
    return {
      subject: `Your plot '${name}' is now live on ${siteName}`,
      text: [
        'Hello,',
        '',
        `Good news: our team has reviewed your plot '${name}' at ${where} and approved it. It is now live on ${siteName}${origin ? `: ${origin}/plot/${plot.plotId}` : '.'}`,
        '',
        `Thank you for being part of ${siteName}.`,
        '',
        `The ${siteName} team`,
      ].join('\n'),
    };
  }
  return {
    subject: `Your plot '${name}' has been removed from ${siteName}`,
    text: [
      'Hello,',
      '',
      `Our team has reviewed your plot '${name}' at ${where} and removed it from ${siteName} because it does not meet our content policy.`,
      'The policy does not allow adult or NSFW content, illegal activities, hate speech, spam or scams, violence, or copyright infringement.',
      '',
      'As our terms state, all sales are final: a plot removed for a content policy violation is not refunded.',
      '',
      `If you believe this was a mistake, reply to us via the contact page${origin ? ` (${origin}/contact)` : ''} and choose the subject 'Content Moderation'.`,
      '',
      `The ${siteName} team`,
    ].join('\n'),
  };
}
