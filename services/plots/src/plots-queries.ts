import { attachHoldCommand, holdFootprintCommand, releaseHoldCommand } from '@pixel-atlas/contracts/queries';
import type { BackendService } from '@pixel-atlas/service-kit/backend-service';
import { answer, type QueryHandler } from '@pixel-atlas/service-kit/rpc';
import type { PrismaClient } from './db.ts';
import { attachHold } from './domain/attach-hold.ts';
import { holdFootprint } from './domain/hold-footprint.ts';
import { releaseHold } from './domain/release-hold.ts';
import type { PlotsEnv } from './env.ts';
import type { LandMaskCopy } from './land-mask-copy.ts';
import type { PlotsMetrics } from './metrics.ts';
import type { PlotCaches } from './plot-caches.ts';

export interface PlotsQueriesOptions {
  app: BackendService<PrismaClient, PlotsMetrics>;
  env: PlotsEnv;
  caches: PlotCaches;
  landMask: LandMaskCopy;
}

/** The checkout holds payments asks plots for over NATS, as the queries plugin's options. */
export function plotsQueries({ app, env, caches, landMask }: PlotsQueriesOptions): { queue: string; handlers: QueryHandler[] } {
  return {
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
          caches.holdsChanged();
        }
      }),
      answer(attachHoldCommand, (request) => attachHold({ db: app.db, ...request })),
      answer(releaseHoldCommand, async (request) => {
        try {
          return await releaseHold({ db: app.db, ...request });
        } finally {
          caches.holdsChanged();
        }
      }),
    ],
  };
}
