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
  private running = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(private readonly options: NotifierOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Look now (a decision just committed) rather than at the next poll. */
  kick(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      let handled = 0;
      try {
        handled = await deliverDueNotifications(this.options);
        failures = 0;
      } catch (error) {
        failures += 1;
        if (failures === 1 || failures % 20 === 0) this.options.log.warn({ err: error }, 'notifier: could not read due notifications; will retry');
      }
      if (handled > 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollIntervalMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}
