import type { JsMsg } from '@nats-io/jetstream';
import { createInbox, delay, nuid } from '@nats-io/nats-core';
import type { FastifyBaseLogger } from 'fastify';
import { natsInboxPrefix } from '@pixel-atlas/service-kit/nats-auth';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { LIVE_FEEDS, type LiveEntry, type LiveEventLog, type LiveFeed, type LiveMessage } from './domain/live-event-log.ts';

/** The event subjects each feed's consumer reads (one filter subject per consumer on NATS 2.9). */
export const LIVE_FEED_SUBJECTS: Record<LiveFeed, string> = { plots: 'plots.>', map: 'map.layout.>' };

/** Maps an event subject (without the deployment prefix) to what browsers are told, or null. */
export function liveMessageFor(type: string, data: Record<string, unknown>): LiveMessage | null {
  switch (type) {
    case 'plots.plot.claimed':
      // A screened plot stays hidden until approved: nothing to show yet.
      return data.visible === false ? null : { event: 'plots-changed', data: { reason: 'claimed', plotId: String(data.plotId) } };
    case 'plots.plot.published':
      return { event: 'plots-changed', data: { reason: 'approved', plotId: String(data.plotId) } };
    case 'plots.plot.removed':
      return { event: 'plots-changed', data: { reason: 'removed', plotId: String(data.plotId) } };
    case 'plots.plot.updated':
      // An owner changed message, link or avatar; a plot still waiting for review is not on any map.
      return data.visible === false ? null : { event: 'plots-changed', data: { reason: 'updated', plotId: String(data.plotId) } };
    case 'map.layout.generated':
      return { event: 'map-changed', data: { reason: 'generated' } };
    case 'map.layout.cleared':
      return { event: 'map-changed', data: { reason: 'cleared' } };
    default:
      return null;
  }
}

export interface FollowLiveFeedsOptions {
  bus: EventBus;
  log: FastifyBaseLogger;
  events: LiveEventLog;
  /** Stream messages read back at start, so a replica that just started can resume browsers too. */
  backfillMessages: number;
  /** Every event the feeds deliver: its entry, or undefined when browsers are sent nothing (a hidden plot, a redelivery). */
  onAppended: (entry: LiveEntry | undefined) => void;
}

/**
 * Follows both feeds from where the event log stands, with an ordered consumer per feed (not a shared durable), so every
 * replica hears every event. Runs until stopped: while the stream does not exist yet (the gateway can start before
 * any producer) or the broker is away, it retries.
 */
export function followLiveFeeds({ bus, log, events, backfillMessages, onAppended }: FollowLiveFeedsOptions): { stop: () => Promise<void> } {
  let closing = false;
  const stops: Array<() => Promise<void>> = [];
  const { jsm, js, settings } = bus;
  const prefix = settings.subjectPrefix;
  const deliverPrefix = () => createInbox(settings.user ? natsInboxPrefix(settings.user) : undefined);

  const received = (feed: LiveFeed, message: JsMsg) => {
    let live: LiveMessage | null = null;
    try {
      const envelope = message.json<{ type?: string; data?: Record<string, unknown> }>();
      live = liveMessageFor(envelope.type ?? message.subject.slice(prefix.length), envelope.data ?? {});
    } catch (error) {
      log.warn({ err: error, subject: message.subject }, 'ignoring an unreadable event on the live stream');
    }
    onAppended(events.append(feed, message.seq, live));
  };

  const follow = async () => {
    while (!closing) {
      try {
        const info = await jsm.streams.info(settings.stream);
        const generation = Date.parse(info.created).toString(36);
        const end = info.state.last_seq;
        const startAt = events.open(generation, Math.max(1, end - backfillMessages + 1), end);
        const ended = await Promise.race(
          LIVE_FEEDS.map(async (feed) => {
            const consumer = await js.consumers.getPushConsumer(settings.stream, {
              name_prefix: `gateway-live-${feed}-${nuid.next()}`,
              deliver_prefix: deliverPrefix(),
              filter_subjects: bus.subject(LIVE_FEED_SUBJECTS[feed]),
              opt_start_seq: startAt[feed],
            });
            const messages = await consumer.consume();
            stops.push(async () => {
              await messages.close();
            });
            for await (const message of messages) received(feed, message);
            return feed;
          }),
        );
        if (!closing) log.warn({ feed: ended }, 'a live update feed ended; following the stream again');
      } catch (error) {
        if (!closing) log.warn({ err: error }, 'live updates cannot follow the event stream yet; retrying');
      }
      for (const stop of stops.splice(0)) await stop().catch(() => undefined);
      if (!closing) await delay(1000);
    }
  };
  const following = follow();

  return {
    stop: async () => {
      closing = true;
      for (const stop of stops.splice(0)) await stop().catch(() => undefined);
      await following;
    },
  };
}
