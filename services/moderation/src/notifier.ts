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

/** The background loop that delivers owner notifications: polls, and wakes at once after a decision. */
export class Notifier {
  private readonly worker: PollingWorker;

  constructor(options: NotifierOptions) {
    this.worker = new PollingWorker({
      name: 'notifier',
      tick: () => deliverDueNotifications(options),
      pollIntervalMs: options.pollIntervalMs,
      log: options.log,
    });
  }

  start(): void {
    this.worker.start();
  }

  /** Look now (a decision just committed) rather than at the next poll. */
  kick(): void {
    this.worker.kick();
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }
}
