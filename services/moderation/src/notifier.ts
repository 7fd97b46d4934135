import { PollingWorker } from '@pixel-atlas/service-kit/polling-worker';
import type { FastifyBaseLogger } from 'fastify';
import type { PrismaClient } from './db.ts';
import { deliverDueNotifications, type DeliveryOutcome, type Mailer } from './domain/deliver-notifications.ts';

export interface NotifierOptions {
  db: PrismaClient;
  mailer: Mailer;
  log: FastifyBaseLogger;
  pollIntervalMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  onOutcome?: (outcome: DeliveryOutcome) => void;
}

/** The background loop that delivers owner notifications: polls, and is kicked at once after a decision. */
export function createNotifier(options: NotifierOptions): PollingWorker {
  return new PollingWorker({
    name: 'notifier',
    tick: () => deliverDueNotifications(options),
    pollIntervalMs: options.pollIntervalMs,
    log: options.log,
  });
}
