import net from 'node:net';
import path from 'node:path';
import { BACKEND_NAMES, SERVICES, type BackendName } from '@pixel-atlas/contracts/services';
import { baseEnvShape, envField, envLoader, requireOutsideDevelopment } from '@pixel-atlas/service-kit/env';
import { z } from 'zod';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/** A comma-separated list of upstream base URLs (several = replicas, spread round-robin). */
const upstreamList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((s) => s.trim().replace(/\/+$/, ''))
      .filter(Boolean),
  )
  .pipe(
    z.array(z.url({ protocol: /^https?$/, error: 'each upstream must be an http(s) URL' })).min(1, 'must list at least one upstream URL'),
  );

/** The backend whose upstream variable is required; another's left out leaves the gateway without its routes. */
const REQUIRED_UPSTREAM = 'contact' satisfies BackendName;
type UpstreamShape = {
  [S in BackendName as (typeof SERVICES)[S]['urlEnv']]: S extends typeof REQUIRED_UPSTREAM
    ? typeof upstreamList
    : z.ZodOptional<typeof upstreamList>;
};

/** Each backend's variable of @pixel-atlas/contracts/services (CONTACT_URL, MAP_URL, PLOTS_URL…): its replicas. */
const upstreamShape = Object.fromEntries(
  BACKEND_NAMES.map((name) => [SERVICES[name].urlEnv, name === REQUIRED_UPSTREAM ? upstreamList : upstreamList.optional()]),
) as UpstreamShape;

/** proxy-addr's names for address ranges (loopback 127/8 and ::1, RFC 1918 and fc00::/7, link-local). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Which X-Forwarded-For hops to believe. `true` (believe every hop) is refused: the client address would
 * then be the left-most entry, which the client writes itself, and every per-address limit would be
 * spoofable. A hop count believes that many proxies from the right; a list believes only those addresses.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    if (value === '' || value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) return Number(value);
    if (value.toLowerCase() === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          "'true' would believe every X-Forwarded-For entry, so any client could pick its own address and escape the per-client limits. " +
          'Set the number of proxies in front of the gateway (e.g. TRUST_PROXY=1) or their addresses/CIDRs (e.g. TRUST_PROXY=10.0.0.0/8)',
      });
      return z.NEVER;
    }
    const entries = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length || !entries.length) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a hop count (e.g. 1) or a comma-separated list of proxy addresses/CIDRs; not understood: ${bad.join(', ') || value}`,
      });
      return z.NEVER;
    }
    return entries;
  });

export const envSchema = z
  .object({
    ...baseEnvShape,
    PORT: envField.port(SERVICES.gateway.port),
    ...upstreamShape,
    WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'web/dist')),
    SITE_NAME: z.string().min(1).default('Pixel Atlas'),
    /**
     * The address people use, e.g. https://atlas.example.com; https here turns on Secure __Host- cookies.
     * Canonical URLs, og:url and the sitemap are built from it, never from the Host header: required unless NODE_ENV
     * is explicitly development or test (unset is production); there it is http://localhost:<PORT> (see publicOriginOf).
     */
    PUBLIC_ORIGIN: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://atlas.example.com' }).optional(),
    /** Proxies in front of the gateway whose X-Forwarded-For entries are believed: a hop count or addresses/CIDRs. */
    TRUST_PROXY: trustProxy.default(false),
    ADMIN_USERNAME: z.string().trim().min(1).max(100).optional(),
    ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
    ADMIN_SESSION_IDLE_MINUTES: envField.positiveInt(30),
    ADMIN_SESSION_ABSOLUTE_HOURS: envField.positiveInt(8),
    /**
     * Password attempts per admin username per hour from browsers that never signed in (no device cookie): the most a
     * botnet can guess. Filling it blocks only strangers: passkeys and the admin's known browsers are counted apart.
     */
    ADMIN_SIGN_IN_MAX_PER_HOUR: envField.positiveInt(1000),
    /** Requests per minute per client across the whole API (a ceiling against floods, not a product rule). */
    RATE_LIMIT_PER_MINUTE: envField.positiveInt(600),
    /**
     * rel of plots' outbound links in server-rendered pages. The product sells a followed link, so the
     * default adds no nofollow; an operator who prefers search engines' paid-link policy sets 'sponsored noopener'.
     */
    OUTBOUND_LINK_REL: z.string().trim().default('noopener'),
    UPSTREAM_TIMEOUT_MS: envField.positiveInt(15_000),
    /**
     * How long one call the gateway makes itself may take: a page's or a share card's data, a badge's plot, a service's
     * API document, a batch of page views. Shorter than a proxied request's: a crowd's page waits on it.
     */
    SERVICE_CALL_TIMEOUT_MS: envField.positiveInt(5000),
    /**
     * The map layout and plot lists are answered from the gateway's memory for at most this long without asking
     * their service again (events that change them expire the copy at once); 0 revalidates every request.
     */
    PUBLIC_DOCUMENT_MAX_AGE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /** Live-update (SSE) connections one client (an IPv4 address, an IPv6 /64) may hold open at once; more answer 429. */
    LIVE_MAX_PER_CLIENT: envField.positiveInt(20),
    /** Live-update connections this replica holds at once from everyone; more answer 503 with Retry-After. */
    LIVE_MAX_TOTAL: envField.positiveInt(10_000),
    /**
     * Connections the public port holds at once, from everyone and per client (an IPv4 address, an IPv6 /64); a
     * connection over either is answered 503 and closed before its request is read. The per-client cap is not applied
     * when TRUST_PROXY is set (every connection then comes from the proxy; cap clients there).
     */
    MAX_CONNECTIONS: envField.positiveInt(20_000),
    MAX_CONNECTIONS_PER_CLIENT: envField.positiveInt(256),
    /** Live events each replica keeps for browsers that resume with Last-Event-ID (~150 bytes each). */
    LIVE_REPLAY_EVENTS: z.coerce.number().int().positive().max(1_000_000).default(10_000),
    /** Stream messages (of every kind) a replica reads back when it starts, to resume browsers from other replicas. */
    LIVE_BACKFILL_MESSAGES: z.coerce.number().int().min(0).max(1_000_000).default(50_000),
    /** Bytes a live-update browser may leave unread before its stream is cut (it resumes on reconnect). */
    LIVE_MAX_UNREAD_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(16 * 2 ** 20)
      .default(64 * 1024),
    /** Share cards (og:image PNGs) drawn at once per process (CPU-bound, ~50 ms each) and waiting; past that 503. */
    SHARE_CARD_RENDER_CONCURRENCY: z.coerce.number().int().positive().max(16).default(1),
    SHARE_CARD_RENDER_QUEUE: z.coerce.number().int().min(0).max(1000).default(16),
    /** Share cards kept in memory per process (one per plot), and their total size in MiB. */
    SHARE_CARD_CACHE_ENTRIES: envField.positiveInt(500),
    SHARE_CARD_CACHE_MB: envField.positiveInt(64),
    /**
     * Memory for the rendered documents (pages, sitemaps, share cards, the API reference) per process, in MiB, every
     * coding counted (a plot page is about 60 KB in its three codings); the least recently used go first.
     */
    RENDERED_DOCUMENT_CACHE_MB: envField.positiveInt(128),
    /** The longest a rendered page is served without being rebuilt, whatever the events say (a lost event's cost). */
    RENDERED_DOCUMENT_MAX_AGE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && !env.PUBLIC_ORIGIN) {
      requireOutsideDevelopment(
        ctx,
        'PUBLIC_ORIGIN',
        'the address people use, e.g. https://atlas.example.com; page links are never taken from the Host header',
      );
    }
  });
export type GatewayEnv = z.infer<typeof envSchema>;

/**
 * Fastify's trustProxy for TRUST_PROXY. Fastify 5 ignores a bare number (it cannot tell a proxy from a
 * direct client), so a hop count becomes proxy-addr's hop function: the socket peer and the next n-1
 * entries from the right are proxies, and the entry after them is the client, whatever the client
 * wrote further left.
 */
export function fastifyTrustProxy(value: GatewayEnv['TRUST_PROXY']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return value;
}

/** The origin of every absolute link the gateway writes: PUBLIC_ORIGIN, or (outside production) its own port on localhost. */
export function publicOriginOf(env: Pick<GatewayEnv, 'PUBLIC_ORIGIN' | 'PORT'>): string {
  return env.PUBLIC_ORIGIN ? new URL(env.PUBLIC_ORIGIN).origin : `http://localhost:${env.PORT}`;
}

export const loadEnv = envLoader(envSchema);
