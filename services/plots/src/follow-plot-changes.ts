import type { BackendService } from '@pixel-atlas/service-kit/backend-service';
import type { PrismaClient } from './db.ts';
import type { PlotsEnv } from './env.ts';
import type { LandMaskCopy } from './land-mask-copy.ts';
import { createLinkChecker } from './link-checker.ts';
import type { PlotsMetrics } from './metrics.ts';
import { listenForPlotChanges } from './plot-change-listener.ts';
import type { PlotCaches } from './plot-caches.ts';
import type { ScreenWordsCopy } from './screen-words-copy.ts';

export interface FollowPlotChangesOptions {
  app: BackendService<PrismaClient, PlotsMetrics>;
  env: PlotsEnv;
  caches: PlotCaches;
  landMask: LandMaskCopy;
  screenWords: ScreenWordsCopy;
}

/**
 * Keeps this replica's copies in step with what other replicas and services change, from ready to close: the land
 * mask and the screen words follow their events, the plot caches drop what each plots.* event changes, and the link checker
 * (when LINK_CHECK_INTERVAL_MS is set) runs its rounds.
 */
export function followPlotChanges({ app, env, caches, landMask, screenWords }: FollowPlotChangesOptions): void {
  const metrics = app.serviceMetrics;
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
      (event) => {
        caches.changed(event);
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
}
