import nodemailer from 'nodemailer';
import type { Mailer } from './domain/deliver-notifications.ts';

export interface SmtpSettings {
  url: string;
  from: string;
}

/**
 * An SMTP mailer (nodemailer) from `SMTP_URL`, or null when none is configured. Timeouts are short so a
 * hanging server delays one notification, not the notifier; options in the URL's query win.
 */
export function createMailer(settings: SmtpSettings | null): (NonNullable<Mailer> & { close(): void }) | null {
  if (!settings) return null;
  const transport = nodemailer.createTransport(
    { url: settings.url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from: settings.from },
  );
  return {
    async send(email) {
      await transport.sendMail({ to: email.to, subject: email.subject, text: email.text });
    },
    close: () => transport.close(),
  };
}
