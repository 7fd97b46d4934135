import { describeRoutes, usedOnlyByHandlers } from '@pixel-atlas/service-kit/describe-routes';
import type { OpenApiDocument } from '@pixel-atlas/service-kit/openapi';
import type { AvatarDecodeSlots } from './avatar-decode-slots.ts';
import type { PlotListCache } from './plot-list-cache.ts';
import type { ReservedFootprintsCache } from './reserved-footprints-cache.ts';
import type { ClaimBatches } from './domain/claim-batches.ts';
import { claimRoutes } from './routes/claim.ts';
import { claimStateRoutes } from './routes/claim-state.ts';
import { directoryRoutes } from './routes/directory.ts';
import { flagRoutes } from './routes/flag.ts';
import { linkHealthRoutes } from './routes/link-health.ts';
import { manageRoutes } from './routes/manage.ts';
import { ownerLinkRecoveryRoutes } from './routes/owner-link-recovery.ts';
import { plotStatsRoutes } from './routes/plot-stats.ts';
import { plotRoutes } from './routes/plots.ts';
import { positionRoutes } from './routes/position.ts';
import { reservedFootprintRoutes } from './routes/reserved-footprints.ts';
import type { PrismaClient } from './db.ts';

/** The plots service's OpenAPI document, from its route schemas (nothing connects). */
export function describeApi(): Promise<OpenApiDocument> {
  return describeRoutes('plots', async (app) => {
    const db = usedOnlyByHandlers<PrismaClient>('db');
    const rateLimit = { max: 1, timeWindow: 1 };
    const decodeSlots = usedOnlyByHandlers<AvatarDecodeSlots>('decodeSlots');
    const unused = () => {
      throw new Error('a route callback ran while only describing routes');
    };
    await app.register(plotRoutes, { db, cache: usedOnlyByHandlers<PlotListCache>('cache') });
    await app.register(positionRoutes, { db });
    await app.register(claimStateRoutes, { db });
    await app.register(directoryRoutes, { db });
    await app.register(linkHealthRoutes, { db });
    await app.register(reservedFootprintRoutes, { cache: usedOnlyByHandlers<ReservedFootprintsCache>('cache') });
    await app.register(claimRoutes, {
      db,
      batches: usedOnlyByHandlers<ClaimBatches>('batches'),
      maxAttemptsPerSession: 0,
      decodeSlots,
      maxInputPixels: 0,
      entitlementTimeoutMs: 0,
      screenTimeoutMs: 0,
      secureCookie: false,
      onClaimed: unused,
    });
    await app.register(flagRoutes, { db, rateLimit, secureCookie: false, onFlagged: unused });
    await app.register(manageRoutes, {
      db,
      rateLimit,
      screenTimeoutMs: 0,
      secureCookie: false,
      maxInputPixels: 0,
      decodeSlots,
      onChanged: unused,
    });
    await app.register(plotStatsRoutes, { db, rateLimit, visitorSecret: '', onRecorded: unused });
    await app.register(ownerLinkRecoveryRoutes, { db, rateLimit, perAddress: rateLimit });
  });
}
