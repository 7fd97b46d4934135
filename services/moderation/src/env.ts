import { SERVICES } from '@pixel-atlas/contracts/services';
import { baseEnvShape, envField, envLoader } from '@pixel-atlas/service-kit/env';
import { z } from 'zod';

export const envSchema = z.object({
  ...baseEnvShape,
  PORT: envField.port(SERVICES.moderation.port),
  /** The product name, used in the owner e-mails. */
  SITE_NAME: z.string().min(1).default('Pixel Atlas'),
  /** The address people use (e.g. https://atlas.example.com): links in the owner e-mails. Optional. */
  PUBLIC_ORIGIN: envField.emptyAsUnset(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
  /** Words screened on top of the spec's list (comma-separated); the spec's list always applies. */
  MODERATION_EXTRA_WORDS: z.string().default(''),
  /** smtp://user:pass@host:587 or smtps://host:465 (nodemailer URL; query options such as ?ignoreTLS=true allowed).
   *  Unset: owner notifications are recorded with status 'logged' and written to the log instead of sent. */
  SMTP_URL: envField.emptyAsUnset(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional()),
  /** The sender of owner e-mails. */
  SMTP_FROM: envField.emptyAsUnset(z.string().min(1).default('Pixel Atlas <no-reply@localhost>')),
  /** Attempts before a notification is given up as 'failed' (retried with exponential back-off). */
  NOTIFY_MAX_ATTEMPTS: envField.positiveInt(20),
  /** First retry delay; doubles per attempt up to NOTIFY_RETRY_MAX_MS. */
  NOTIFY_RETRY_BASE_MS: envField.positiveInt(5_000),
  NOTIFY_RETRY_MAX_MS: envField.positiveInt(15 * 60 * 1000),
  /** How often the notifier looks for due notifications (a decision also wakes it at once). */
  NOTIFY_POLL_INTERVAL_MS: envField.positiveInt(2_000),
});
export type ModerationEnv = z.infer<typeof envSchema>;

export const loadEnv = envLoader(envSchema);
