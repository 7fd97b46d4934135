import type { MetricFactory } from '@pixel-atlas/service-kit/metrics';
import type { PrismaClient } from './db.ts';
import { countPendingReviews } from './domain/list-flagged-plots.ts';

/** The moderation service's own metrics (`app.serviceMetrics`); the queue gauge counts when Prometheus scrapes. */
export function moderationMetrics(m: MetricFactory, db: PrismaClient) {
  return {
    queuePending: m.gauge({
      name: 'moderation_queue_pending',
      help: 'Plots waiting for an admin review',
      async collect() {
        this.set(await countPendingReviews({ db }).catch(() => -1));
      },
    }),
    decisions: m.counter({ name: 'moderation_decisions_total', help: 'Admin decisions, by outcome', labelNames: ['decision'] }),
    screenHits: m.counter({ name: 'moderation_screen_hits_total', help: 'Content screen queries that found a listed word' }),
    notifications: m.counter({
      name: 'moderation_notifications_total',
      help: 'Owner notification delivery attempts, by outcome (sent, logged, retry, failed)',
      labelNames: ['outcome'],
    }),
  };
}

export type ModerationMetrics = ReturnType<typeof moderationMetrics>;
