import { randomUUID } from 'node:crypto';
import { PollingWorker } from '@pixel-atlas/service-kit/polling-worker';
import type { FastifyBaseLogger } from 'fastify';
import type { PrismaClient } from './db.ts';
import { checkPlotLinks, type LinkCheckSchedule } from './domain/check-plot-links.ts';
import { LinkProber } from './domain/probe-link.ts';
import type { PlotsEnv } from './env.ts';

/** What the checker says about itself to the sites it visits: who we are and where to read about it. */
export function linkCheckerUserAgent(siteName: string, publicOrigin: string | undefined): string {
  const product = siteName.replace(/[^A-Za-z0-9]+/g, '') || 'PixelAtlas';
  return `${product}-LinkChecker/1.0 (+${publicOrigin ?? 'http://localhost:8080'}; checks that the links on our map still work)`;
}

export function linkCheckSchedule(env: PlotsEnv): LinkCheckSchedule {
  const rounds = Math.ceil(env.LINK_CHECK_BATCH_SIZE / env.LINK_CHECK_CONCURRENCY);
  return {
    recheckMs: env.LINK_CHECK_RECHECK_MS,
    batchSize: env.LINK_CHECK_BATCH_SIZE,
    concurrency: env.LINK_CHECK_CONCURRENCY,
    // Long enough for a whole batch at the worst (every probe timing out), plus a margin for the writes.
    leaseMs: rounds * env.LINK_CHECK_TIMEOUT_MS + 30_000,
    unreachableAfterFailures: env.LINK_CHECK_UNREACHABLE_AFTER_FAILURES,
    unreachableAfterMs: env.LINK_CHECK_UNREACHABLE_AFTER_MS,
  };
}

export interface LinkCheckerOptions {
  env: PlotsEnv;
  db: () => PrismaClient;
  log: FastifyBaseLogger;
  onChecked: Parameters<typeof checkPlotLinks>[0]['onChecked'];
  /** After a round that marked a link unreachable: its event waits in the outbox. */
  onEventQueued: () => void;
}

/**
 * The background link checker of one replica: rounds of `checkPlotLinks` every LINK_CHECK_INTERVAL_MS (at once
 * again while links were due). Every replica runs one; the leased rows make them share the links, never check one twice.
 * Kick the worker when a plot changed (maybe its link); close the prober after stopping the worker (its sockets).
 */
export function createLinkChecker(options: LinkCheckerOptions): { worker: PollingWorker; prober: LinkProber } {
  const { env } = options;
  const prober = new LinkProber({
    userAgent: linkCheckerUserAgent(env.SITE_NAME, env.PUBLIC_ORIGIN),
    timeoutMs: env.LINK_CHECK_TIMEOUT_MS,
    allowedPorts: env.LINK_CHECK_ALLOWED_PORTS,
  });
  const workerId = `plots-${randomUUID()}`;
  const schedule = linkCheckSchedule(env);
  const worker = new PollingWorker({
    name: 'link checker',
    pollIntervalMs: env.LINK_CHECK_INTERVAL_MS,
    maxBackoffMs: Math.max(env.LINK_CHECK_INTERVAL_MS, 60_000),
    log: options.log,
    tick: async () => {
      let queued = false;
      const checked = await checkPlotLinks({
        db: options.db(),
        prober,
        schedule,
        workerId,
        onChecked: (outcome) => {
          queued ||= outcome.becameUnreachable;
          options.onChecked?.(outcome);
        },
      });
      if (queued) options.onEventQueued();
      return checked;
    },
  });
  return { worker, prober };
}
