import { Counter, Gauge, type Registry } from 'prom-client';
import type { PrismaClient } from './db.ts';
import { countPendingReviews } from './domain/list-flagged-plots.ts';

export interface ModerationMetrics {
  decisions: Counter<'decision'>;
  screenHits: Counter;
  notifications: Counter<'outcome'>;
}

/** The service's own metrics on the app's registry (app.metrics). */
export function registerModerationMetrics(registry: Registry, db: () => PrismaClient): ModerationMetrics {
  new Gauge({
    name: 'moderation_queue_pending',
    help: 'Plots waiting for an admin review',
    registers: [registry],
    async collect() {
      this.set(await countPendingReviews({ db: db() }).catch(() => -1));
    },
  });
  return {
    decisions: new Counter({ name: 'moderation_decisions_total', help: 'Admin decisions, by outcome', labelNames: ['decision'], registers: [registry] }),
    screenHits: new Counter({ name: 'moderation_screen_hits_total', help: 'Content screen queries that found a listed word', registers: [registry] }),
    notifications: new Counter({
      name: 'moderation_notifications_total',
      help: 'Owner notification delivery attempts, by outcome (sent, logged, retry, failed)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}
