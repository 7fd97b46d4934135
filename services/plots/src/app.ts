import path from 'node:path';
import cookie from '@fastify/cookie';
import { attachHoldCommand, holdFootprintCommand, releaseHoldCommand } from '@pixel-atlas/contracts/queries';
import { inboxPlugin, type EventHandlers } from '@pixel-atlas/service-kit/inbox';
import { answer, queriesPlugin } from '@pixel-atlas/service-kit/rpc';
import { createBackendService, type BackendService } from '@pixel-atlas/service-kit/backend-service';
import { AvatarDecodeSlots } from './avatar-decode-slots.ts';
import { PrismaClient, SCHEMA, type Tx } from './db.ts';
import { attachHold } from './domain/attach-hold.ts';
import { defaultVisitorCookieSecret } from './domain/flag-plot.ts';
import { decidePlotEdit } from './domain/decide-plot-edit.ts';
import { approvePlot, removePlot } from './domain/moderation-decisions.ts';
import { holdFootprint } from './domain/hold-footprint.ts';
import { listReservedFootprints } from './domain/list-reserved-footprints.ts';
import { listVisiblePlots } from './domain/list-visible-plots.ts';
import { recordEntitlement } from './domain/record-entitlement.ts';
import { releaseHold, releaseSessionHold } from './domain/release-hold.ts';
import type { PlotsEnv } from './env.ts';
import { createLinkChecker } from './link-checker.ts';
import { plotsMetrics, type PlotsMetrics } from './metrics.ts';
import { listenForPlotChanges } from './plot-change-listener.ts';
import { LandMaskCopy } from './land-mask-copy.ts';
import { PlotListCache } from './plot-list-cache.ts';
import { ReservedFootprintsCache } from './reserved-footprints-cache.ts';
import { ScreenWordsCopy } from './screen-words-copy.ts';
import { ClaimBatches } from './domain/claim-batches.ts';
import { claimRoutes } from './routes/claim.ts';
import { claimStateRoutes } from './routes/claim-state.ts';
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

  const metrics = app.serviceMetrics;
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
  let stopListening: (() => void) | null = null;
  const linkChecker =
    env.LINK_CHECK_INTERVAL_MS > 0
      ? createLinkChecker({
          env,
          db: () => app.db,
          log: app.log.child({ component: 'link-checker' }),
          onChecked: ({ status, becameUnreachable }) => {
            metrics.linkChecks.inc({ status });
            if (becameUnreachable) metrics.linksMarkedUnreachable.inc();
          },
          onEventQueued: () => app.outbox.kick(),
        })
      : null;
  let linkCheckSoon: NodeJS.Timeout | null = null;
  const kickLinkCheckerSoon = () => {
    if (!linkChecker || linkCheckSoon) return;
    linkCheckSoon = setTimeout(() => {
      linkCheckSoon = null;
      linkChecker.worker.kick();
    }, env.LINK_CHECK_CHANGE_DELAY_MS).unref();
  };
  app.addHook('onReady', async () => {
    await landMask.copy.watch(app.bus, ['map.layout.>'], app.log);
    await screenWords.copy.watch(app.bus, ['moderation.screen.>'], app.log);
    stopListening = listenForPlotChanges(
      app.bus,
      () => {
        plotList.invalidate();
        reserved.invalidate();
        // A changed link starts over: the checker's next round (soon, with every other change meanwhile) resets its row.
        kickLinkCheckerSoon();
      },
      app.log,
    );
    linkChecker?.worker.start();
  });
  app.addHook('preClose', async () => {
    landMask.copy.stop();
    screenWords.copy.stop();
    stopListening?.();
    if (linkCheckSoon) clearTimeout(linkCheckSoon);
    await linkChecker?.worker.stop();
    await linkChecker?.prober.close();
  });

  // An owner's held edit: approved, it replaces the plot's message and link; rejected, the plot stays as it is.
  const applyEditDecision =
    (approved: boolean): NonNullable<EventHandlers<Tx>['moderation.edit.approved']> =>
    async (event, tx, log) => {
      const outcome = await decidePlotEdit({
        tx,
        editId: event.data.editId,
        approved,
        decidedAt: event.data.decidedAt,
        requestId: event.requestId,
      });
      log.info(
        { plotId: event.data.plotId, editId: event.data.editId, outcome, decidedBy: event.data.decidedBy },
        approved ? 'edit approval applied' : 'edit rejection applied',
      );
    };
  // Events after whose commit this replica's plot list is stale (others hear the plots.* event they emit).
  const changesPlots = new Set(['moderation.plot.approved', 'moderation.plot.rejected', 'moderation.edit.approved']);
  await app.register(
    inboxPlugin({
      db: () => app.db,
      consumers: [
        {
          durable: 'plots',
          schema: SCHEMA,
          afterCommit: (event) => {
            // An expired checkout releases its hold: the reserved land changes too.
            if (event.type === 'payments.checkout.expired') reserved.invalidate();
            if (!changesPlots.has(event.type)) return;
            plotList.invalidate();
            reserved.invalidate();
            app.outbox.kick();
          },
          handlers: {
            'payments.payment.verified': async (event, tx) =>
              recordEntitlement({
                db: tx,
                entitlement: {
                  sessionId: event.data.sessionId,
                  tier: event.data.tier,
                  amountCents: event.data.amountCents,
                  currency: event.data.currency,
                  footprint: event.data.footprint,
                  paidAt: new Date(event.occurredAt),
                  buyerEmail: event.data.buyerEmail ?? null,
                },
              }),
            'payments.checkout.expired': async (event, tx) => releaseSessionHold({ tx, sessionId: event.data.sessionId }),
            // Moderation's decisions: publish a held plot, or remove a rejected one (footprint freed, row kept).
            'moderation.plot.approved': async (event, tx, log) => {
              const outcome = await approvePlot({
                tx,
                plotId: event.data.plotId,
                decidedAt: event.data.decidedAt,
                requestId: event.requestId,
              });
              metrics.moderationDecisions.inc({ outcome });
              log.info({ plotId: event.data.plotId, outcome, decidedBy: event.data.decidedBy }, 'moderation approval applied');
            },
            'moderation.plot.rejected': async (event, tx, log) => {
              const outcome = await removePlot({ tx, plotId: event.data.plotId, reason: 'rejected', requestId: event.requestId });
              metrics.moderationDecisions.inc({ outcome });
              log.info({ plotId: event.data.plotId, outcome, decidedBy: event.data.decidedBy }, 'moderation rejection applied');
            },
            'moderation.edit.approved': applyEditDecision(true),
            'moderation.edit.rejected': applyEditDecision(false),
          },
        },
      ],
    }),
  );
  await app.register(queriesPlugin, {
    queue: 'plots',
    handlers: [
      answer(holdFootprintCommand, async (request) => {
        try {
          return await holdFootprint({
            db: app.db,
            bus: app.bus,
            ...request,
            maxHoldSeconds: env.HOLD_MAX_SECONDS,
            maxHeldPercent: env.HELD_LAND_MAX_PERCENT,
            landTiles: () => landMask.landTiles(),
            land: landMask,
          });
        } finally {
          reserved.invalidate();
        }
      }),
      answer(attachHoldCommand, (request) => attachHold({ db: app.db, ...request })),
      answer(releaseHoldCommand, async (request) => {
        try {
          return await releaseHold({ db: app.db, ...request });
        } finally {
          reserved.invalidate();
        }
      }),
    ],
  });

  // One cookie secret for the cookies plots signs: the visitor cookie (flags) and the owner cookie (stats).
  await app.register(cookie, { secret: env.VISITOR_COOKIE_SECRET ?? defaultVisitorCookieSecret(env.INTERNAL_TOKEN) });
  const secureCookie = env.PUBLIC_ORIGIN?.startsWith('https://') ?? false;
  await app.register(plotRoutes, { db: app.db, cache: plotList });
  await app.register(claimStateRoutes, { db: app.db });
  await app.register(positionRoutes, { db: app.db, land: landMask });
  await app.register(linkHealthRoutes, { db: app.db });
  await app.register(reservedFootprintRoutes, { cache: reserved });
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
      plotList.invalidate();
      reserved.invalidate();
      metrics.plotsClaimed.inc({ tier });
      metrics.claimsScreened.inc({ screened_by: screenedBy, outcome: held ? 'held' : 'published' });
    },
  });
  await app.register(flagRoutes, {
    db: app.db,
    rateLimit: { max: env.FLAG_RATE_LIMIT_MAX, timeWindow: env.FLAG_RATE_LIMIT_WINDOW_MS },
    secureCookie,
    onFlagged: (created) => {
      if (created) plotList.invalidate();
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
    onChanged: () => plotList.invalidate(),
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
  });
  return app;
}
