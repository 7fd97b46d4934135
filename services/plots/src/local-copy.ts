import { InvalidatedValue } from '@pixel-atlas/service-kit/invalidated-value';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import type { FastifyBaseLogger } from 'fastify';

/**
 * This replica's copy of something another service owns (the map's land mask, moderation's word list), loaded on
 * first use and dropped whenever that service says it changed, so a claim needs no NATS round trip for it.
 *
 * Safe against staleness, in this order of events:
 * - `watch` subscribes to the change subjects (and flushes, so the broker has the subscription) BEFORE any load:
 *   a change committed after the owner read its data for our load is always heard after that load began.
 * - A load that is overtaken by a change (`invalidate` while it runs) is never kept, and a caller waiting on it loads
 *   again: what `get` returns was read after the last change this replica heard of.
 * - A NATS disconnect or reconnect drops the copy (changes may have been missed meanwhile): the next read asks the
 *   owner again, and fails as the per-claim query used to when it cannot be asked.
 * The one window left is the owner's own: between its commit and its event, the same window in which the owner's
 * replicas still answer from their own copies.
 */
export class LocalCopy<T> {
  private readonly value: InvalidatedValue<T>;
  private stopWatching: (() => void) | null = null;

  constructor(load: () => Promise<T>) {
    this.value = new InvalidatedValue({ load, overtaken: 'reload' });
  }

  get(): Promise<T> {
    return this.value.get();
  }

  /** Drops the copy (and any load under way): the next read loads again. */
  invalidate(): void {
    this.value.invalidate();
  }

  /** How many times the copy was dropped (tests). */
  get invalidations(): number {
    return this.value.invalidations;
  }

  /**
   * Drops the copy on every message on `subjects` (bus names, e.g. `map.layout.>`) and on every NATS disconnect or
   * reconnect. Resolves once the broker has the subscriptions.
   */
  async watch(bus: EventBus, subjects: string[], log: FastifyBaseLogger): Promise<void> {
    const subscriptions = subjects.map((subject) => bus.nc.subscribe(bus.subject(subject)));
    for (const subscription of subscriptions) {
      (async () => {
        for await (const _message of subscription) this.invalidate();
      })().catch((error) => log.warn({ err: error }, 'local copy: change subscription ended'));
    }
    let closed = false;
    (async () => {
      for await (const status of bus.nc.status()) {
        if (closed) break;
        if (status.type === 'disconnect' || status.type === 'reconnect') this.invalidate();
      }
    })().catch(() => undefined);
    this.stopWatching = () => {
      closed = true;
      for (const subscription of subscriptions) subscription.unsubscribe();
    };
    await bus.nc.flush();
  }

  stop(): void {
    this.stopWatching?.();
    this.stopWatching = null;
    this.invalidate();
  }
}
