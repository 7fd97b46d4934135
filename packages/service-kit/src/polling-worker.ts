import { backoffDelay } from './backoff.ts';
import type { FastifyBaseLogger } from 'fastify';

export interface PollingWorkerOptions {
  /** One round of work; returns how many items it handled (another round follows at once while `moreMayWait` says so). */
  tick: () => Promise<number>;
  /**
   * Whether a round that handled this many items may have left work behind (default: it handled any). A kick during
   * a round always brings another one at once.
   */
  moreMayWait?: (handled: number) => boolean;
  pollIntervalMs: number;
  log: FastifyBaseLogger;
  /** Names the worker in its warnings. */
  name: string;
  /** After failures wait longer each time (up to this many ms) instead of polling at the usual pace. */
  maxBackoffMs?: number;
  /** true: the first round waits one interval (or a kick) rather than running at start. */
  waitBeforeFirstRound?: boolean;
}

/**
 * The one background loop of a service (the outbox relay, notifications, sweeps, health checks): a round
 * every interval, and `kick()` runs one at once (work was just committed). `stop()` waits for the round
 * in progress. Failures are logged, never thrown, and retried for ever: warned about on the first and every
 * twentieth in a row so an outage does not flood the log. Its timer never keeps the process alive.
 */
export class PollingWorker {
  private running = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private failures = 0;
  /** A kick came since the current round began: what it announced may have been committed after the round looked. */
  private kicked = false;

  constructor(private readonly options: PollingWorkerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Look now (work was just committed) rather than at the next poll. */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { pollIntervalMs, maxBackoffMs } = this.options;
    if (this.options.waitBeforeFirstRound) await this.sleep(pollIntervalMs);
    while (this.running) {
      let handled = 0;
      this.kicked = false;
      try {
        handled = await this.options.tick();
        this.failures = 0;
      } catch (error) {
        this.failures += 1;
        if (this.failures === 1 || this.failures % 20 === 0)
          this.options.log.warn({ err: error }, `${this.options.name}: failed; will retry`);
      }
      const { moreMayWait = (n: number) => n > 0 } = this.options;
      if (this.failures === 0 && (this.kicked || moreMayWait(handled))) continue;
      // The first failure already waits twice the interval: a round that failed at once should not hammer.
      const delay =
        this.failures && maxBackoffMs
          ? backoffDelay(this.failures + 1, { baseMs: pollIntervalMs, maxMs: maxBackoffMs, maxDoublings: 5 })
          : pollIntervalMs;
      await this.sleep(delay);
    }
  }

  private async sleep(ms: number): Promise<void> {
    if (!this.running) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }
}
