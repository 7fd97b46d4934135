import path from 'node:path';
import { baseEnvShape, parseEnv } from '@pixel-atlas/service-kit/env';
import { z } from 'zod';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** A comma-separated list of upstream base URLs (several = replicas, spread round-robin). */
const upstreamList = z
  .string()
  .transform((value) => value.split(',').map((s) => s.trim().replace(/\/+$/, '')).filter(Boolean))
  .pipe(z.array(z.url({ protocol: /^https?$/, error: 'each upstream must be an http(s) URL' })).min(1, 'must list at least one upstream URL'));

export const envSchema = z.object({
  ...baseEnvShape,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  CONTACT_URL: upstreamList,
  MAP_URL: upstreamList.optional(),
  PLOTS_URL: upstreamList.optional(),
  PAYMENTS_URL: upstreamList.optional(),
  MODERATION_URL: upstreamList.optional(),
  WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'web/dist')),
  SITE_NAME: z.string().min(1).default('Pixel Atlas'),
  /** The address people use, e.g. https://atlas.example.com; https here turns on Secure __Host- cookies. */
  PUBLIC_ORIGIN: z.url().optional(),
  /** Set when a reverse proxy sits in front, so the client address comes from X-Forwarded-For. */
  TRUST_PROXY: z.stringbool().default(false),
  ADMIN_USERNAME: z.string().trim().min(1).max(100).optional(),
  ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
  ADMIN_SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(30),
  ADMIN_SESSION_ABSOLUTE_HOURS: z.coerce.number().int().positive().default(8),
  /** Requests per minute per client across the whole API (a ceiling against floods, not a product rule). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /**
   * rel of plots' outbound links in server-rendered pages. The product sells a followed link, so the
   * default adds no nofollow; an operator who prefers search engines' paid-link policy sets 'sponsored noopener'.
   */
  OUTBOUND_LINK_REL: z.string().trim().default('noopener'),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
});
export type GatewayEnv = z.infer<typeof envSchema>;

export function loadEnv(source: Record<string, string | undefined> = process.env): GatewayEnv {
  return parseEnv(envSchema, source);
}
