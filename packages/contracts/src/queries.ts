import { z } from 'zod';
import { tierSchema } from './tiers.ts';

/**
 * Request/reply between services over NATS (queue groups, behind the deployment's subject prefix).
 * Each entry: subject, request schema, reply schema. Errors come back as `{ ok: false, error: { code, message } }`.
 */
const footprint = z.object({ x: z.number().int(), y: z.number().int(), size: z.number().int().min(1).max(4) });

export const footprintIsLandQuery = {
  subject: 'query.map.footprint-is-land',
  request: footprint,
  /** regionName: the region of the footprint's top-left tile (null on water or with no map; absent from older map replicas). */
  reply: z.object({ mapExists: z.boolean(), land: z.boolean(), regionName: z.string().nullable().optional() }),
};

export const sessionEntitlementQuery = {
  subject: 'query.payments.session-entitlement',
  request: z.object({ sessionId: z.string().min(1) }),
  /** paid: the provider confirmed payment (amount and currency matched the tier). */
  reply: z.object({
    sessionId: z.string(),
    paid: z.boolean(),
    tier: tierSchema.nullable(),
    footprint: footprint.nullable(),
    /** The address given at checkout (see `payments.payment.verified`); absent from older payments replicas. */
    buyerEmail: z.string().nullable().optional(),
    /** What was paid and when, for the receipt (as in `payments.payment.verified`); absent from older replicas. */
    amountCents: z.number().int().optional(),
    currency: z.string().optional(),
    paidAt: z.string().nullable().optional(),
  }),
};

/**
 * What a checkout asks of plots beyond the footprint check (grid, land, not taken or held): `required` (the default,
 * what older payments replicas send) holds it or refuses; `if-room` holds it while the unpaid holds of every client
 * stay under the ceiling on held land, and otherwise answers `held: false` (the sale goes on without a hold); `none`
 * only checks (the client already holds as much as one address may).
 */
const holdModeSchema = z.enum(['required', 'if-room', 'none']);
export type HoldMode = z.infer<typeof holdModeSchema>;

/** Payments asks plots to keep a footprint free for the life of a checkout session. */
export const holdFootprintCommand = {
  subject: 'command.plots.hold-footprint',
  request: z.object({
    holdId: z.string().min(1),
    tier: tierSchema,
    x: z.number().int(),
    y: z.number().int(),
    expiresAt: z.string(),
    mode: holdModeSchema.optional(),
  }),
  /** held: false only when the request's mode allows it: the footprint was free, but nothing keeps it so. */
  reply: z.object({ held: z.boolean() }),
};

/** Payments moves a hold from its provisional id to the checkout session id once the provider made one. */
export const attachHoldCommand = {
  subject: 'command.plots.attach-hold',
  request: z.object({ holdId: z.string().min(1), sessionId: z.string().min(1) }),
  reply: z.object({ attached: z.boolean() }),
};

export const releaseHoldCommand = {
  subject: 'command.plots.release-hold',
  request: z.object({ holdId: z.string().min(1) }),
  reply: z.object({ released: z.boolean() }),
};

export const screenContentQuery = {
  subject: 'query.moderation.screen-content',
  // Bounded so one request cannot make the screen read megabytes: the fields screened are at most 140 characters.
  request: z.object({ texts: z.array(z.string().max(2000)).max(8), linkHost: z.string().max(2048).nullable() }),
  reply: z.object({ flagged: z.boolean(), words: z.array(z.string()) }),
};

/**
 * The content screen's whole word list in force (the spec's floor plus the operator's extra words): plots keeps a
 * copy and screens claims and owner edits itself, instead of one `screenContentQuery` round trip per claim. Dropped
 * and asked again on `moderation.screen.configured` (a moderation replica started with its list) and on reconnects.
 */
export const screenWordsQuery = {
  subject: 'query.moderation.screen-words',
  request: z.object({}),
  reply: z.object({ words: z.array(z.string().min(1).max(200)).max(10_000) }),
};

/**
 * Plots asks moderation (which owns the mailer and the owner's e-mail) to e-mail a new plot's owner link, right after
 * the claim commits. Core request/reply on purpose, never an event or an outbox row: the plaintext token must not be
 * kept anywhere durable (JetStream keeps events; an outbox row outlives its relay). `delivery`: `sent`, `failed`
 * (SMTP refused or did not answer: plots tries again a few times), or `not-configured` (no SMTP_URL: nothing is sent,
 * and the token is not written to the log either).
 */
export const sendOwnerLinkCommand = {
  subject: 'command.moderation.send-owner-link',
  request: z.object({
    plotId: z.uuid(),
    email: z.email().max(254),
    displayName: z.string().min(1).max(60),
    x: z.number().int(),
    y: z.number().int(),
    token: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
    /**
     * Present right after a paid claim: the e-mail is the buyer's receipt (amount, tier, position, date, the plot's
     * page and the owner link) instead of the bare owner link.
     */
    receipt: z
      .object({
        tier: tierSchema,
        amountCents: z.number().int().nonnegative(),
        currency: z.string().min(3).max(3),
        paidAt: z.iso.datetime({ offset: true }),
      })
      .optional(),
  }),
  reply: z.object({ delivery: z.enum(['sent', 'failed', 'not-configured']) }),
};

/**
 * "Lost your owner link?": plots found the plots bought with an address and made each a new owner link; moderation
 * e-mails them all in one message. Request/reply for the same reason as `sendOwnerLinkCommand` (the tokens must not be
 * kept anywhere durable). Plots makes the new links the live ones only once this answers `sent`.
 */
export const sendOwnerLinkRecoveryCommand = {
  subject: 'command.moderation.send-owner-link-recovery',
  request: z.object({
    email: z.email().max(254),
    plots: z
      .array(
        z.object({
          plotId: z.uuid(),
          displayName: z.string().min(1).max(60),
          x: z.number().int(),
          y: z.number().int(),
          token: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
        }),
      )
      .min(1)
      .max(100),
  }),
  reply: z.object({ delivery: z.enum(['sent', 'failed', 'not-configured']) }),
};

/**
 * The whole land mask and region index, for a service that checks footprints itself (plots, per claim) instead of
 * asking `footprintIsLandQuery` each time. Read from the database on every ask (never from a replica's cache that
 * may not have heard the latest `map.layout.*` event yet): the asker keeps it until a `map.layout.*` event.
 * `land`: base64 of one byte per tile, row-major (1 = land); `regions`: base64 of one byte per tile indexing
 * `regionNames` (0 = none, n = regionNames[n - 1]). `size` is the grid's side. No map: `mapExists` false.
 */
export const landMaskQuery = {
  subject: 'query.map.land-mask',
  request: z.object({}),
  reply: z.discriminatedUnion('mapExists', [
    z.object({ mapExists: z.literal(false) }),
    z.object({
      mapExists: z.literal(true),
      size: z.number().int().positive().max(1024),
      land: z.base64(),
      regions: z.base64(),
      regionNames: z.array(z.string()).max(255),
    }),
  ]),
};
