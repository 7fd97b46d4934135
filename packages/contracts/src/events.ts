import { z } from 'zod';
import { plotPlacementShape } from './plot-placement.ts';
import { tierSchema } from './tiers.ts';

/**
 * Every event on JetStream is this envelope; the subject is `type` (behind the deployment's subject prefix).
 * `id` doubles as the JetStream Nats-Msg-Id and as the consumers' inbox key.
 */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  occurredAt: z.string(),
  requestId: z.string().optional(),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'data'> & { data: T };

const footprint = z.object({ x: z.number().int(), y: z.number().int(), size: z.number().int() });
const plotSnapshot = z.object({
  plotId: z.uuid(),
  displayName: z.string(),
  ...plotPlacementShape,
  message: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
});

export const EVENTS = {
  'contact.message.received': z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
    submittedAt: z.string(),
  }),
  'payments.payment.verified': z.object({
    sessionId: z.string(),
    tier: tierSchema,
    amountCents: z.number().int(),
    currency: z.string(),
    footprint: footprint.nullable(),
    /**
     * The address the buyer gave at checkout (Stripe's `customer_details.email`, or the test checkout's field), for the
     * receipt and owner-link recovery; null when none was given, absent from older payments replicas.
     */
    buyerEmail: z.string().nullable().optional(),
  }),
  /** The checkout session ended unpaid: its footprint hold can go. */
  'payments.checkout.expired': z.object({ sessionId: z.string() }),
  'plots.plot.claimed': plotSnapshot.extend({
    sessionId: z.string(),
    size: z.number().int(),
    visible: z.boolean(),
    screenedWords: z.array(z.string()),
    notificationEmail: z.string().nullable(),
    clientIp: z.string().nullable(),
  }),
  'plots.plot.flagged': plotSnapshot.extend({ flagCount: z.number().int(), reason: z.string().nullable() }),
  /** A hidden plot was approved and is now public (or a flagged one was cleared): replicas drop their list cache, live maps refresh. */
  'plots.plot.published': z.object({ plotId: z.uuid() }),
  'plots.plot.removed': z.object({ plotId: z.uuid(), sessionId: z.string(), reason: z.string() }),
  /**
   * The owner changed what the plot shows (message, link or avatar; name, tier and position never change), or an
   * admin approved such an edit. The whole new public state: open maps, every replica's plot list cache, the
   * gateway's share pages and sitemap and the share card follow it. `avatarUrl` changes when the avatar does (it
   * carries a version), so caches keyed by it never serve the old picture.
   */
  'plots.plot.updated': plotSnapshot.extend({
    size: z.number().int(),
    visible: z.boolean(),
    avatarUrl: z.string(),
    changed: z.array(z.enum(['message', 'link', 'avatar'])).min(1),
    updatedAt: z.string(),
  }),
  /**
   * An owner's edit of message/link hit the content screen: it waits for an admin while the plot keeps showing its
   * current content. The snapshot is the plot as it is; `proposed` is what the owner asked for.
   */
  'plots.edit.submitted': plotSnapshot.extend({
    editId: z.uuid(),
    proposed: z.object({ message: z.string(), link: z.string().nullable() }),
    screenedWords: z.array(z.string()),
  }),
  /**
   * The background checker found the plot's link failing N times in a row over at least days: moderation e-mails
   * the owner (when they left an address). Emitted once per run of failures; a recovery clears the mark.
   */
  'plots.link.unreachable': z.object({
    plotId: z.uuid(),
    displayName: z.string(),
    x: z.number().int(),
    y: z.number().int(),
    link: z.string(),
    failingSince: z.string(),
    consecutiveFailures: z.number().int(),
    lastError: z.string().nullable(),
  }),
  'moderation.plot.approved': z.object({ plotId: z.uuid(), decidedBy: z.string(), decidedAt: z.string() }),
  'moderation.plot.rejected': z.object({ plotId: z.uuid(), decidedBy: z.string(), decidedAt: z.string() }),
  /** An admin accepted a held owner edit: plots applies it (and emits `plots.plot.updated`). */
  'moderation.edit.approved': z.object({ plotId: z.uuid(), editId: z.uuid(), decidedBy: z.string(), decidedAt: z.string() }),
  /** An admin refused a held owner edit: the plot keeps its content, the edit is dropped. */
  'moderation.edit.rejected': z.object({ plotId: z.uuid(), editId: z.uuid(), decidedBy: z.string(), decidedAt: z.string() }),
  /**
   * A moderation replica started screening with this list (its `MODERATION_EXTRA_WORDS` may have changed): copies of
   * the list (plots') are dropped and asked for again with `screenWordsQuery`.
   */
  'moderation.screen.configured': z.object({ wordCount: z.number().int() }),
  'map.layout.generated': z.object({ seed: z.string(), tileCount: z.number().int(), landTileCount: z.number().int() }),
  'map.layout.cleared': z.object({}),
} as const;

export type EventType = keyof typeof EVENTS;
export type EventData<T extends EventType> = z.infer<(typeof EVENTS)[T]>;

/**
 * The reconciler's question to a producer (service-kit `reconcile.ts`): which events of these types did you publish?
 * Asked over NATS request/reply, answered from the producer's outbox (rows are kept `OUTBOX_RETENTION_DAYS`), so a
 * consumer can apply again what the bus acknowledged and then lost. Without `ids`: a page of ids in publish order,
 * after `after` (the last row of the previous page) and published at least `olderThanMs` ago. With `ids`: those
 * events' envelopes, to apply.
 */
export const publishedEventsRequestSchema = z.object({
  types: z.array(z.string()).min(1).max(64),
  after: z.object({ publishedAt: z.string(), id: z.uuid() }).nullable(),
  olderThanMs: z.number().int().min(0),
  limit: z.number().int().min(1).max(1000),
  ids: z.array(z.uuid()).max(1000).optional(),
});
export type PublishedEventsRequest = z.infer<typeof publishedEventsRequestSchema>;

export const publishedEventsReplySchema = z.object({
  /** `publishedAt` as PostgreSQL prints it (microseconds), so a cursor built from it loses nothing. */
  events: z.array(z.object({ id: z.uuid(), type: z.string(), publishedAt: z.string(), envelope: eventEnvelopeSchema.optional() })),
});
export type PublishedEventsReply = z.infer<typeof publishedEventsReplySchema>;

/** The subject a producer answers it on: `query.<service>.published-events`, like every query named after its answerer. */
export function publishedEventsQuery(producer: string) {
  return { subject: `query.${producer}.published-events`, request: publishedEventsRequestSchema, reply: publishedEventsReplySchema };
}
