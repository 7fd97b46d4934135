import path from 'node:path';
import cookie from '@fastify/cookie';
import { queriesPlugin } from '@pixel-atlas/service-kit/rpc';
import { createBackendService, type BackendService } from '@pixel-atlas/service-kit/backend-service';
import { AvatarDecodeSlots } from './avatar-decode-slots.ts';
import { PrismaClient, SCHEMA } from './db.ts';
import { defaultVisitorCookieSecret } from './domain/flag-plot.ts';
import { listReservedFootprints } from './domain/list-reserved-footprints.ts';
import { listVisiblePlots } from './domain/list-visible-plots.ts';
import type { PlotsEnv } from './env.ts';
import { followPlotChanges, type FollowPlotChangesOptions } from './follow-plot-changes.ts';
import { plotsMetrics, type PlotsMetrics } from './metrics.ts';
import { LandMaskCopy } from './land-mask-copy.ts';
import { PlotCaches } from './plot-caches.ts';
import { PlotListCache } from './plot-list-cache.ts';
import { plotsInbox } from './plots-inbox.ts';
import { plotsQueries } from './plots-queries.ts';
import { ReservedFootprintsCache } from './reserved-footprints-cache.ts';
import { ScreenWordsCopy } from './screen-words-copy.ts';
import { ClaimBatches } from './domain/claim-batches.ts';
import { claimRoutes } from './routes/claim.ts';
import { claimStateRoutes } from './routes/claim-state.ts';
import { directoryRoutes } from './routes/directory.ts';
import { flagRoutes } from './routes/flag.ts';
import { manageRoutes } from './routes/manage.ts';
import { ownerLinkRecoveryRoutes } from './routes/owner-link-recovery.ts';
import { plotStatsRoutes } from './routes/plot-stats.ts';
import { linkHealthRoutes } from './routes/link-health.ts';
import { plotRoutes } from './routes/plots.ts';
import { positionRoutes } from './routes/position.ts';
import { reservedFootprintRoutes } from './routes/reserved-footprints.ts';

const migrationsDir = path.resolve(import.meta.dirname, '../prisma/migrations');

declare module 'fastify' {
  interface FastifyInstance {
    plotList: PlotListCache;
    avatarDecodeSlots: AvatarDecodeSlots;
    landMask: LandMaskCopy;
    screenWords: ScreenWordsCopy;
  }
}

/** The plots service as an app, ready for `listen` (server.ts) or `inject` (tests). */
export async function buildApp(env: PlotsEnv): Promise<BackendService<PrismaClient, PlotsMetrics>> {
  const app = await createBackendService({
    name: 'plots',
    description:
      'Plots, footprints and checkout holds, screened claims, visitor flags, moderation decisions, position availability, user pages, avatars',
    env,
    schema: SCHEMA,
    migrationsDir,
    createClient: (adapter) => new PrismaClient({ adapter }),
    metrics: plotsMetrics,
  });

  const plotList = new PlotListCache(
    () => listVisiblePlots({ db: app.db }),
    env.PLOT_LIST_CACHE_MAX_AGE_MS,
    (error) => app.log.warn({ err: error }, 'plot list rebuild failed'),
  );
  app.decorate('plotList', plotList);
  const reserved = new ReservedFootprintsCache(() => listReservedFootprints({ db: app.db }), env.RESERVED_FOOTPRINTS_CACHE_MS);
  // The map's land mask, kept here and dropped on map.layout.* events: claims and holds check land without a NATS query.
  const landMask = new LandMaskCopy(app.bus);
  app.decorate('landMask', landMask);
  const screenWords = new ScreenWordsCopy(app.bus, env.SCREEN_QUERY_TIMEOUT_MS);
  app.decorate('screenWords', screenWords);
  const caches = new PlotCaches(plotList, reserved);
  followPlotChanges({ app, env, caches, landMask, screenWords });
  await app.register(plotsInbox({ app, caches }));
  await app.register(queriesPlugin, plotsQueries({ app, env, caches, landMask }));
  await registerRoutes({ app, env, caches, landMask, screenWords });
  return app;
}

/** The routes take the same parts as the change listener: the app, its env, its caches and copies. */
type PlotsRoutesOptions = FollowPlotChangesOptions;

async function registerRoutes({ app, env, caches, landMask, screenWords }: PlotsRoutesOptions): Promise<void> {
  const metrics = app.serviceMetrics;
  // One cookie secret for the cookies plots signs: the visitor cookie (flags) and the owner cookie (stats).
  await app.register(cookie, { secret: env.VISITOR_COOKIE_SECRET ?? defaultVisitorCookieSecret(env.INTERNAL_TOKEN) });
  const secureCookie = env.PUBLIC_ORIGIN?.startsWith('https://') ?? false;
  await app.register(plotRoutes, { db: app.db, cache: caches.plotList });
  await app.register(claimStateRoutes, { db: app.db });
  await app.register(positionRoutes, { db: app.db, land: landMask });
  await app.register(linkHealthRoutes, { db: app.db });
  await app.register(reservedFootprintRoutes, { cache: caches.reserved });
  const decodeSlots = new AvatarDecodeSlots({
    concurrency: env.AVATAR_DECODE_CONCURRENCY,
    maxQueue: env.AVATAR_DECODE_QUEUE,
    onDecode: () => metrics.avatarDecodes.inc(),
    onRefused: () => metrics.avatarDecodesRefused.inc(),
  });
  app.decorate('avatarDecodeSlots', decodeSlots);
  await app.register(claimRoutes, {
    db: app.db,
    batches: new ClaimBatches(app.pg),
    maxAttemptsPerSession: env.CLAIM_MAX_ATTEMPTS_PER_SESSION,
    decodeSlots,
    land: landMask,
    screenWords,
    maxInputPixels: env.AVATAR_MAX_INPUT_PIXELS,
    entitlementTimeoutMs: env.ENTITLEMENT_QUERY_TIMEOUT_MS,
    screenTimeoutMs: env.SCREEN_QUERY_TIMEOUT_MS,
    secureCookie,
    onClaimed: ({ tier, screenedBy, held }) => {
      caches.changed('plots.plot.claimed');
      metrics.plotsClaimed.inc({ tier });
      metrics.claimsScreened.inc({ screened_by: screenedBy, outcome: held ? 'held' : 'published' });
    },
  });
  await app.register(flagRoutes, {
    db: app.db,
    rateLimit: { max: env.FLAG_RATE_LIMIT_MAX, timeWindow: env.FLAG_RATE_LIMIT_WINDOW_MS },
    secureCookie,
    onFlagged: (created) => {
      if (created) caches.changed('plots.plot.flagged');
      metrics.flags.inc({ outcome: created ? 'new' : 'repeat' });
    },
  });
  await app.register(manageRoutes, {
    db: app.db,
    rateLimit: { max: env.MANAGE_RATE_LIMIT_MAX, timeWindow: env.MANAGE_RATE_LIMIT_WINDOW_MS },
    screenTimeoutMs: env.SCREEN_QUERY_TIMEOUT_MS,
    secureCookie,
    screenWords,
    maxInputPixels: env.AVATAR_MAX_INPUT_PIXELS,
    decodeSlots,
    // An applied edit and a new avatar both write plots.plot.updated.
    onChanged: () => caches.changed('plots.plot.updated'),
  });
  await app.register(ownerLinkRecoveryRoutes, {
    db: app.db,
    rateLimit: { max: env.OWNER_LINK_RECOVERY_RATE_LIMIT_MAX, timeWindow: env.OWNER_LINK_RECOVERY_RATE_LIMIT_WINDOW_MS },
    perAddress: { max: env.OWNER_LINK_RECOVERY_PER_ADDRESS_MAX, timeWindow: env.OWNER_LINK_RECOVERY_PER_ADDRESS_WINDOW_MS },
    onOutcome: (outcome) => metrics.ownerLinkRecoveries.inc({ outcome }),
  });
  await app.register(plotStatsRoutes, {
    db: app.db,
    rateLimit: { max: env.STATS_RATE_LIMIT_MAX, timeWindow: 60_000 },
    visitorSecret: env.INTERNAL_TOKEN,
    onRecorded: (beacon) => metrics.statBeacons.inc(beacon),
    onViewRecorded: (view) => metrics.plotViews.inc(view),
  });
  await app.register(directoryRoutes, { db: app.db });
}
