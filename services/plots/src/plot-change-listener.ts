import type { EventType } from '@pixel-atlas/contracts/events';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Every replica drops its plot list when any replica changes plots: a plain (non-queue) NATS subscription
 * on `plots.>` sees each event the outbox relays, on every replica. Events missed while disconnected are
 * covered by invalidating on reconnect (and by the cache's max age).
 */
export function listenForPlotChanges(
  bus: EventBus,
  onChange: (event: EventType | 'reconnect') => void,
  log: FastifyBaseLogger,
): () => void {
  const subscription = bus.nc.subscribe(bus.subject('plots.>'));
  const prefix = bus.subject('');
  (async () => {
    for await (const message of subscription) onChange(message.subject.slice(prefix.length) as EventType);
  })().catch((error) => log.warn({ err: error }, 'plot change subscription ended'));
  let closed = false;
  (async () => {
    for await (const status of bus.nc.status()) {
      if (closed) break;
      if (status.type === 'reconnect') onChange('reconnect');
    }
  })().catch(() => undefined);
  return () => {
    closed = true;
    subscription.unsubscribe();
  };
}
