import path from 'node:path';
import { BACKEND_NAMES, SERVICES } from '@pixel-atlas/contracts/services';
import { createDatabasePool, databasePlugin, withDb, type AppWithDb } from '@pixel-atlas/service-kit/database';
import { natsPlugin, natsSettingsFromEnv } from '@pixel-atlas/service-kit/nats';
import { createServiceApp } from '@pixel-atlas/service-kit/service';
import { PrismaClient, SCHEMA } from './db.ts';
import { createAdminUser } from './domain/create-admin-user.ts';
import { LOGIN_THROTTLE } from './domain/sign-in-admin.ts';
import { fastifyTrustProxy, publicOriginOf, type GatewayEnv } from './env.ts';
import { adminAuthPlugin } from './plugins/admin-auth.ts';
import { apiDocsPlugin } from './plugins/api-docs.ts';
import { badgesPlugin } from './plugins/badges.ts';
import { connectionGuardPlugin } from './plugins/connection-guard.ts';
import { liveUpdatesPlugin } from './plugins/live-updates.ts';
import { ownerPagesPlugin } from './plugins/owner-pages.ts';
import { plotViewsPlugin } from './plugins/plot-views.ts';
import { shareCardsPlugin } from './plugins/share-cards.ts';
import { sharePagesPlugin } from './plugins/share-pages.ts';
import { proxyPlugin } from './plugins/proxy.ts';
import { renderedDocumentsPlugin } from './plugins/rendered-documents.ts';
import { securityPlugin } from './plugins/security.ts';
import { spaPlugin } from './plugins/spa.ts';
import { adminPasskeyRoutes } from './routes/admin-passkeys.ts';
import { adminSessionRoutes } from './routes/admin-session.ts';

const migrationsDir = path.resolve(import.meta.dirname, '../prisma/migrations');

/** The front door: security headers, admin identity, the API proxy, the API reference and the SPA. */
export async function buildApp(env: GatewayEnv): Promise<AppWithDb<PrismaClient>> {
  const https = env.PUBLIC_ORIGIN?.startsWith('https://') ?? false;
  const app = await createServiceApp({
    name: 'gateway',
    description: 'Admin identity and the front door',
    internalToken: env.INTERNAL_TOKEN,
    logLevel: env.LOG_LEVEL,
    trustRequestIdFrom: 'nobody',
    databaseSchema: SCHEMA,
    jsonNotFound: false,
    // Metrics and readiness details live on METRICS_PORT only: this port faces the internet.
    publicPort: true,
    fastify: { trustProxy: fastifyTrustProxy(env.TRUST_PROXY) },
    listener: env,
  });
  await app.register(connectionGuardPlugin, {
    maxConnections: env.MAX_CONNECTIONS,
    maxPerClient: env.TRUST_PROXY === false ? env.MAX_CONNECTIONS_PER_CLIENT : null,
  });
  await app.register(securityPlugin, { https });
  const { pool, adapter } = createDatabasePool(env.DATABASE_URL, SCHEMA);
  const db = new PrismaClient({ adapter });
  await app.register(databasePlugin, { connectionString: env.DATABASE_URL, schema: SCHEMA, migrationsDir, client: db, pool });
  // The gateway only listens (live updates): it never declares the stream, so its NATS user has no grant for it.
  await app.register(natsPlugin, { ...natsSettingsFromEnv(env, 'gateway'), declareStream: false });
  if (env.ADMIN_USERNAME && env.ADMIN_PASSWORD) {
    const { created } = await createAdminUser({ db, username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD });
    if (created) app.log.info({ username: env.ADMIN_USERNAME }, 'created the first admin from ADMIN_USERNAME');
  }
  await app.register(adminAuthPlugin, {
    db,
    secure: https,
    publicOrigin: env.PUBLIC_ORIGIN,
    policy: { idleMinutes: env.ADMIN_SESSION_IDLE_MINUTES, absoluteHours: env.ADMIN_SESSION_ABSOLUTE_HOURS },
  });
  await app.register(adminSessionRoutes, {
    db,
    absoluteHours: env.ADMIN_SESSION_ABSOLUTE_HOURS,
    signInPolicy: { ...LOGIN_THROTTLE, maxAttemptsPerUsernamePerHour: env.ADMIN_SIGN_IN_MAX_PER_HOUR },
  });
  await app.register(adminPasskeyRoutes, {
    db,
    publicOrigin: publicOriginOf(env),
    siteName: env.SITE_NAME,
    absoluteHours: env.ADMIN_SESSION_ABSOLUTE_HOURS,
  });
  // Before the proxy: its hooks (CSRF on owner edits and beacons, private headers) must cover the proxied routes.
  await app.register(ownerPagesPlugin, { distDir: env.WEB_DIST_DIR, publicOrigin: env.PUBLIC_ORIGIN });
  await app.register(proxyPlugin, {
    upstreams: Object.fromEntries(BACKEND_NAMES.map((name) => [name, env[SERVICES[name].urlEnv]])),
    internalToken: env.INTERNAL_TOKEN,
    adminCookieName: app.adminCookie.name,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    timeoutMs: env.UPSTREAM_TIMEOUT_MS,
    serviceCallTimeoutMs: env.SERVICE_CALL_TIMEOUT_MS,
    documentMaxAgeMs: env.PUBLIC_DOCUMENT_MAX_AGE_MS,
  });
  await app.register(plotViewsPlugin, {});
  await app.register(liveUpdatesPlugin, {
    maxPerClient: env.LIVE_MAX_PER_CLIENT,
    maxTotal: env.LIVE_MAX_TOTAL,
    replayCapacity: env.LIVE_REPLAY_EVENTS,
    backfillMessages: env.LIVE_BACKFILL_MESSAGES,
    maxUnreadBytes: env.LIVE_MAX_UNREAD_BYTES,
  });
  // Pages, sitemaps, share cards and the API reference: built once per change, answered from memory.
  await app.register(renderedDocumentsPlugin, {
    maxBytes: env.RENDERED_DOCUMENT_CACHE_MB * 1024 * 1024,
    maxAgeMs: env.RENDERED_DOCUMENT_MAX_AGE_MS,
  });
  await app.register(apiDocsPlugin, { siteName: env.SITE_NAME });
  await app.register(sharePagesPlugin, {
    distDir: env.WEB_DIST_DIR,
    siteName: env.SITE_NAME,
    // Never undefined: a missing origin would make the share pages fall back to the request's Host header.
    publicOrigin: publicOriginOf(env),
    outboundLinkRel: env.OUTBOUND_LINK_REL,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
  });
  await app.register(shareCardsPlugin, {
    siteName: env.SITE_NAME,
    publicOrigin: publicOriginOf(env),
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
    renderConcurrency: env.SHARE_CARD_RENDER_CONCURRENCY,
    renderQueue: env.SHARE_CARD_RENDER_QUEUE,
    cacheEntries: env.SHARE_CARD_CACHE_ENTRIES,
    cacheBytes: env.SHARE_CARD_CACHE_MB * 1024 * 1024,
  });
  await app.register(badgesPlugin, {
    siteName: env.SITE_NAME,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
  });
  await app.register(spaPlugin, { distDir: env.WEB_DIST_DIR });
  return withDb(app, db);
}
