import { SERVICES } from '@pixel-atlas/contracts/services';
import { baseEnvShape, envField, envLoader, requireOutsideDevelopment } from '@pixel-atlas/service-kit/env';
import { z } from 'zod';

export const envSchema = z
  .object({
    // NODE_ENV comes from the kit: unset means production, so VISITOR_COOKIE_SECRET is required unless development or test.
    ...baseEnvShape,
    PORT: envField.port(SERVICES.plots.port),
    /** Decoding bound for avatars (width × height): a small file can declare a huge image. */
    AVATAR_MAX_INPUT_PIXELS: envField.positiveInt(4096 * 4096),
    /** Longest a checkout hold may ask to live (payments asks for the session's 30 minutes plus a margin). */
    HOLD_MAX_SECONDS: envField.positiveInt(3 * 60 * 60),
    /**
     * The most of the free land (land no plot stands on) that unpaid checkout holds of every client may cover at once,
     * in percent. Past it a checkout goes on without a hold: many addresses cannot reserve the whole map unpaid.
     */
    HELD_LAND_MAX_PERCENT: z.coerce.number().min(0).max(100).default(5),
    /**
     * Safety net for the in-memory plot list: rebuilt at most this long after it was built, even if an
     * invalidation was missed (events invalidate it at once). 0 keeps it until invalidated.
     */
    PLOT_LIST_CACHE_MAX_AGE_MS: envField.nonNegativeInt(60_000),
    /**
     * How long a replica reuses the reserved-footprints list (holds and plots under review) before reading it
     * again: every open map polls it. 0 reads the database on every request.
     */
    RESERVED_FOOTPRINTS_CACHE_MS: envField.nonNegativeInt(2_000),
    /** How long a claim waits for payments to confirm a session it has not heard about yet (payments may ask Stripe). */
    ENTITLEMENT_QUERY_TIMEOUT_MS: envField.positiveInt(10_000),
    /**
     * How long a claim waits for moderation's content screen; past it (or with moderation down) the claim is
     * screened locally with the spec's floor list and goes on.
     */
    SCREEN_QUERY_TIMEOUT_MS: envField.positiveInt(2_000),
    /** Claims one paid session may try past the paid/unused checks (each may decode an image), then 429. */
    CLAIM_MAX_ATTEMPTS_PER_SESSION: envField.positiveInt(20),
    /** Avatar decodes running at once per process (CPU-bound: about the number of cores). */
    AVATAR_DECODE_CONCURRENCY: envField.positiveInt(2),
    /**
     * Claims allowed to wait for a decode slot; past it, 503 with Retry-After. 64: a rush of 32 concurrent buyers on
     * one replica (the issue's load) all wait their turn (a 128² re-encode takes milliseconds) instead of some being
     * refused; each waiter holds at most its 2 MB body.
     */
    AVATAR_DECODE_QUEUE: envField.nonNegativeInt(64),
    /** Flags per client address per window (POST /api/flag-plot), then 429. */
    FLAG_RATE_LIMIT_MAX: envField.positiveInt(20),
    FLAG_RATE_LIMIT_WINDOW_MS: envField.positiveInt(10 * 60 * 1000),
    /** Owner-link requests (/api/manage/*) per client address per window, then 429: tokens cannot be tried fast. */
    MANAGE_RATE_LIMIT_MAX: envField.positiveInt(30),
    MANAGE_RATE_LIMIT_WINDOW_MS: envField.positiveInt(60_000),
    /** "Lost your owner link?" (POST /api/manage/recover) per client (IPv6 by /64) per window, then 429. */
    OWNER_LINK_RECOVERY_RATE_LIMIT_MAX: envField.positiveInt(5),
    OWNER_LINK_RECOVERY_RATE_LIMIT_WINDOW_MS: envField.positiveInt(60 * 60 * 1000),
    /** Recovery e-mails per address per window; past it the same answer, and nothing is sent. */
    OWNER_LINK_RECOVERY_PER_ADDRESS_MAX: envField.positiveInt(3),
    OWNER_LINK_RECOVERY_PER_ADDRESS_WINDOW_MS: envField.positiveInt(24 * 60 * 60 * 1000),
    /** Stat beacons (POST /api/plot-stats) per client address per minute, then 429. */
    STATS_RATE_LIMIT_MAX: envField.positiveInt(120),
    /** How often the link checker looks for due links (each replica; rows are leased, so a link is checked by one). 0 turns it off. */
    LINK_CHECK_INTERVAL_MS: envField.nonNegativeInt(60_000),
    /**
     * After a plot changed (maybe its link), how long the checker waits before its next round: every change within
     * this time joins that one round, so a burst of claims costs one sync of the link table, not one per claim.
     */
    LINK_CHECK_CHANGE_DELAY_MS: envField.nonNegativeInt(5_000),
    /** How long after a check a link is checked again. */
    LINK_CHECK_RECHECK_MS: envField.positiveInt(6 * 60 * 60 * 1000),
    /** Links leased per round, and probed at once, per replica. */
    LINK_CHECK_BATCH_SIZE: z.coerce.number().int().positive().max(1000).default(20),
    LINK_CHECK_CONCURRENCY: z.coerce.number().int().positive().max(64).default(4),
    /** One probe's whole budget (DNS, connect, redirects, HEAD then GET). */
    LINK_CHECK_TIMEOUT_MS: z.coerce.number().int().positive().max(120_000).default(10_000),
    /** A link is marked unreachable after this many failed checks in a row, spanning at least LINK_CHECK_UNREACHABLE_AFTER_MS. */
    LINK_CHECK_UNREACHABLE_AFTER_FAILURES: envField.positiveInt(5),
    LINK_CHECK_UNREACHABLE_AFTER_MS: envField.nonNegativeInt(3 * 24 * 60 * 60 * 1000),
    /** Ports a plot link may use to be checked (comma-separated); others count as failing. */
    LINK_CHECK_ALLOWED_PORTS: z
      .string()
      .default('80,443')
      .transform((value) => value.split(',').map((port) => Number(port.trim())))
      .pipe(z.array(z.number().int().min(1).max(65535)).min(1)),
    /** The product name, in the link checker's User-Agent. */
    SITE_NAME: z.string().trim().min(1).max(60).default('Pixel Atlas'),
    /** The address people use (e.g. https://atlas.example.com): https makes the visitor cookie Secure. Optional. */
    PUBLIC_ORIGIN: envField.emptyAsUnset(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    /**
     * Signs the pa_visitor cookie (flags count once per visitor: an unsigned cookie is no visitor) and the pa_owns
     * cookie (the plots a browser owns: its own visits are not counted). Required in
     * production; in development and test it defaults to a value derived from INTERNAL_TOKEN.
     */
    VISITOR_COOKIE_SECRET: envField.emptyAsUnset(
      z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)').optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (!env.VISITOR_COOKIE_SECRET && env.NODE_ENV === 'production') {
      requireOutsideDevelopment(ctx, 'VISITOR_COOKIE_SECRET', 'it signs the visitor cookie that counts flags (e.g. openssl rand -hex 32)');
    }
  });
export type PlotsEnv = z.infer<typeof envSchema>;

export const loadEnv = envLoader(envSchema);
