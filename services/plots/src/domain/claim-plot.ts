import { plotIdFor } from '@pixel-atlas/contracts/plot-id';
import type { Plot as PlotDto, claimPlotRequestSchema } from '@pixel-atlas/contracts/plots';
import { sessionEntitlementQuery } from '@pixel-atlas/contracts/queries';
import { TIER_SIZE, isTier, tierPlotLabel, type Tier } from '@pixel-atlas/contracts/tiers';
import { AppError, isAppError, isTemporarilyUnavailable } from '@pixel-atlas/service-kit/errors';
import type { EventBus } from '@pixel-atlas/service-kit/nats';
import { newEventEnvelope } from '@pixel-atlas/service-kit/outbox';
import { query } from '@pixel-atlas/service-kit/rpc';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AvatarDecodeSlots } from '../avatar-decode-slots.ts';
import { SCHEMA, type PrismaClient } from '../db.ts';
import { PLOT_PUBLIC_SELECT, plotEventSnapshot, toPlotDto, type PublicPlotRow } from '../plot-dto.ts';
import {
  TILE_UNAVAILABLE_MESSAGE,
  assertPlaceable,
  isOverlapViolation,
  isRetryableTransactionError,
  isUniqueViolation,
  type LandSource,
} from './footprints.ts';
import { newManageToken } from './manage-token.ts';
import { processAvatar } from './process-avatar.ts';
import type { ClaimBatches } from './claim-batches.ts';
import { recordEntitlement } from './record-entitlement.ts';
import { UNDER_REVIEW_WARNING, screenClaimContent, type ScreenedBy, type ScreenWordsSource } from './screen-claim-content.ts';

const MAX_TRANSACTION_ATTEMPTS = 8;

export type ClaimPlotInput = z.output<typeof claimPlotRequestSchema>;

export const SESSION_ALREADY_USED_MESSAGE = 'This payment has already been used to claim a plot.';
export const PAYMENT_NOT_COMPLETED_MESSAGE = 'This payment has not been completed. Please finish paying before claiming your plot.';
export const TOO_MANY_ATTEMPTS_MESSAGE =
  'Too many claim attempts have been made with this payment. Please contact us through the contact form and we will place your plot.';

export interface ClaimPlotOptions {
  db: PrismaClient;
  /** This replica's batches of the claim's two statements (the first read and the write). */
  batches: ClaimBatches;
  bus: EventBus;
  claim: ClaimPlotInput;
  clientIp: string | null;
  requestId?: string;
  log: FastifyBaseLogger;
  maxInputPixels: number;
  entitlementTimeoutMs: number;
  /** How long the claim waits for moderation's content screen before screening locally. */
  screenTimeoutMs: number;
  /** Claims one paid session may try (each may decode an image); then 429. */
  maxAttemptsPerSession: number;
  /** The process's bound on concurrent avatar decodes. */
  decodeSlots?: AvatarDecodeSlots;
  /** This replica's copy of the land mask; without it the map is asked per claim. */
  land?: LandSource;
  /** This replica's copy of moderation's word list; without it moderation is asked per claim. */
  screenWords?: ScreenWordsSource;
}

export interface ClaimPlotResult {
  plot: PlotDto;
  warning?: string;
  /** false when an identical earlier claim by the same session is returned again (a retry). */
  created: boolean;
  /** The plot's tier, for metrics. */
  tier: Tier;
  /** How a new plot's content was screened (absent for a replayed claim), for metrics. */
  screening?: { screenedBy: ScreenedBy; held: boolean };
  /** The owner's private link token, only when this claim created the plot (its hash is all we keep). */
  manageToken?: string;
  /** Where the receipt and the owner link go (the claim's address, else the one given at checkout), for a new plot. */
  notificationEmail?: string | null;
}

/**
 * The paid tier of a session and the address given at checkout: our copy (from payments.payment.verified), else
 * payments is asked and the answer kept.
 */
async function paidTier(
  options: ClaimPlotOptions,
  local: { tier: string | null; buyerEmail: string | null },
): Promise<{ tier: Tier; buyerEmail: string | null }> {
  const { db, bus, claim } = options;
  if (local.tier && isTier(local.tier)) return { tier: local.tier, buyerEmail: local.buyerEmail };
  const remote = await query(
    bus,
    sessionEntitlementQuery,
    { sessionId: claim.stripeSessionId },
    { timeoutMs: options.entitlementTimeoutMs },
  );
  if (!remote.paid || !remote.tier) throw new AppError('PAYMENT_REQUIRED', PAYMENT_NOT_COMPLETED_MESSAGE);
  const buyerEmail = remote.buyerEmail ?? null;
  await recordEntitlement({
    db,
    entitlement: {
      sessionId: claim.stripeSessionId,
      tier: remote.tier,
      footprint: remote.footprint,
      buyerEmail,
      amountCents: remote.amountCents ?? null,
      currency: remote.currency ?? null,
      paidAt: remote.paidAt ? new Date(remote.paidAt) : null,
    },
  });
  return { tier: remote.tier, buyerEmail };
}

/** Counts this claim against the session's bound, in the database (shared by every replica); returns the count. */
async function countAttempt(db: PrismaClient, sessionId: string): Promise<number | null> {
  const [row] = await db.$queryRawUnsafe<Array<{ claim_attempts: number }>>(
    `UPDATE "${SCHEMA}"."entitlements" SET "claim_attempts" = "claim_attempts" + 1 WHERE "session_id" = $1 RETURNING "claim_attempts"`,
    sessionId,
  );
  return row?.claim_attempts ?? null;
}

type ExistingPlot = NonNullable<Awaited<ReturnType<typeof findBySession>>>;
function findBySession(db: PrismaClient, sessionId: string) {
  return db.plot.findUnique({ where: { stripeSessionId: sessionId }, select: { ...PLOT_PUBLIC_SELECT, visible: true, removedAt: true } });
}

/**
 * A session buys one plot. The same claim sent again (a retry after a lost response, a double click) gets
 * the plot it already made; any other claim with a used session is refused, and so is any claim once
 * moderation removed the session's plot (removal without refund: the session stays used).
 */
function replayOrRefuse(existing: ExistingPlot, claim: ClaimPlotInput): ClaimPlotResult {
  if (existing.removedAt) throw new AppError('SESSION_ALREADY_USED', SESSION_ALREADY_USED_MESSAGE);
  const same =
    existing.x === claim.x &&
    existing.y === claim.y &&
    existing.tier === claim.tier &&
    existing.zone === claim.zone &&
    existing.displayName === claim.display_name &&
    existing.message === claim.message &&
    (existing.link ?? null) === (claim.link ?? null);
  if (!same) throw new AppError('SESSION_ALREADY_USED', SESSION_ALREADY_USED_MESSAGE);
  return {
    plot: toPlotDto(existing),
    warning: existing.visible ? undefined : UNDER_REVIEW_WARNING,
    created: false,
    tier: existing.tier as Tier,
  };
}

/**
 * POST /api/claim-plot. The session must be paid and unused, the tier must be the paid tier (never the
 * client's word), the footprint must fit the grid, be land, and be free or held by this session. Plot,
 * avatar, footprint, release of this session's hold and the plots.plot.claimed event are one transaction;
 * the exclusion constraint on footprints is the final arbiter under concurrency. If the spot was lost
 * anyway, nothing is consumed: the buyer keeps the paid entitlement and may claim elsewhere.
 */
export async function claimPlot(options: ClaimPlotOptions): Promise<ClaimPlotResult> {
  const { db, claim } = options;
  const state = await options.batches.readState({ x: claim.x, y: claim.y, tier: claim.tier, sessionId: claim.stripeSessionId });
  const { tier, buyerEmail } = await paidTier(options, state);
  if (claim.tier !== tier) {
    const size = TIER_SIZE[tier];
    throw new AppError(
      'VALIDATION_FAILED',
      `tier: Your payment was for a ${tierPlotLabel(tier)} (${size}×${size}), not a ${tierPlotLabel(claim.tier)}. Please claim a ${tierPlotLabel(tier)}.`,
      { fields: { tier: `Your payment was for a ${tierPlotLabel(tier)}.` }, paidTier: tier },
    );
  }
  const existing = state.used ? await findBySession(db, claim.stripeSessionId) : null;
  if (existing) return replayOrRefuse(existing, claim);

  // Paid, unused and the right tier: from here on each try may cost an image decode, so tries are bounded (counted
  // by the first statement when the entitlement was ours already), and the footprint is checked (grid, land, free or
  // ours) before the image is decoded.
  const attempts = state.attempts ?? (await countAttempt(db, claim.stripeSessionId));
  if (attempts !== null && attempts > options.maxAttemptsPerSession) {
    throw new AppError('RATE_LIMITED', TOO_MANY_ATTEMPTS_MESSAGE, { maxAttempts: options.maxAttemptsPerSession });
  }
  try {
    return await claimCountedAttempt(options, tier, state.taken, claim.notification_email ?? buyerEmail);
  } catch (error) {
    // An outage (NATS, the database, a decode queue that is full) is not the buyer's doing: a buyer who retries
    // through a long outage must not use up the paid session's tries, so such an attempt is given back.
    if (isTemporarilyUnavailable(error) || (isAppError(error) && RETRYABLE_CODES.has(error.code))) {
      await uncountAttempt(db, claim.stripeSessionId).catch(() => undefined);
    }
    throw error;
  }
}

/** Codes that answer "try again later" for reasons outside the claim itself. */
const RETRYABLE_CODES = new Set<string>(['TIMEOUT', 'UPSTREAM_UNAVAILABLE', 'NOT_READY']);

async function uncountAttempt(db: PrismaClient, sessionId: string): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE "${SCHEMA}"."entitlements" SET "claim_attempts" = greatest("claim_attempts" - 1, 0) WHERE "session_id" = $1`,
    sessionId,
  );
}

/**
 * `taken`: the footprint was found occupied (a plot or another live hold) when the claim began. It must be free, or
 * held by this session's own checkout, before anything expensive happens: a 409 now. Advisory (the exclusion
 * constraint decides in the end).
 */
async function claimCountedAttempt(
  options: ClaimPlotOptions,
  tier: Tier,
  taken: boolean,
  notificationEmail: string | null,
): Promise<ClaimPlotResult> {
  const { db, claim } = options;
  const footprint = { x: claim.x, y: claim.y, size: TIER_SIZE[tier] };
  const { regionName } = await assertPlaceable(options.bus, footprint, options.land);
  if (taken) {
    // A concurrent duplicate of this claim may have just made the plot standing there: same answer as a retry.
    const winner = await findBySession(db, claim.stripeSessionId);
    if (winner) return replayOrRefuse(winner, claim);
    throw new AppError('TILE_UNAVAILABLE', TILE_UNAVAILABLE_MESSAGE);
  }
  const avatar = await processAvatar({ dataUrl: claim.avatar_url, maxInputPixels: options.maxInputPixels, slots: options.decodeSlots });
  // Screened before the transaction: a hit still creates the plot (the buyer paid), hidden until approved.
  const screening = await screenClaimContent({
    bus: options.bus,
    displayName: claim.display_name,
    message: claim.message,
    link: claim.link ?? null,
    timeoutMs: options.screenTimeoutMs,
    log: options.log,
    words: options.screenWords,
  });

  const manage = newManageToken();
  // The claim's own clock, kept to the millisecond so the id, the event, the answer and later reads agree.
  const createdAt = new Date();
  const plot: PublicPlotRow = {
    id: plotIdFor(createdAt.getTime(), footprint.x, footprint.y),
    zone: claim.zone,
    tier,
    ...footprint,
    displayName: claim.display_name,
    message: claim.message,
    link: claim.link ?? null,
    createdAt,
    // Held by the screen: pending review until an admin decides.
    flagged: !screening.visible,
    reviewed: false,
    regionName,
    avatarVersion: 0,
    contentUpdatedAt: null,
  };
  const event = newEventEnvelope(
    'plots.plot.claimed',
    {
      ...plotEventSnapshot(plot),
      sessionId: claim.stripeSessionId,
      visible: screening.visible,
      screenedWords: screening.screenedWords,
      notificationEmail,
      clientIp: options.clientIp,
    },
    options.requestId,
  );
  const insert = () =>
    options.batches.write({
      plotId: plot.id,
      zone: plot.zone,
      tier: plot.tier,
      x: plot.x,
      y: plot.y,
      size: plot.size,
      displayName: plot.displayName,
      message: plot.message,
      link: plot.link,
      visible: screening.visible,
      regionName: plot.regionName,
      sessionId: claim.stripeSessionId,
      notificationEmail,
      createdAt: plot.createdAt,
      avatar,
      manageTokenHash: manage.tokenHash,
      eventId: event.id,
      eventType: event.type,
      eventPayload: JSON.stringify(event),
      requestId: options.requestId ?? null,
    });

  for (let attempt = 1; ; attempt++) {
    try {
      await insert();
      options.log.info(
        {
          plotId: plot.id,
          tier,
          x: plot.x,
          y: plot.y,
          sessionId: claim.stripeSessionId,
          visible: screening.visible,
          screenedBy: screening.screenedBy,
        },
        screening.visible ? 'plot claimed' : 'plot claimed and held for review',
      );
      return {
        plot: toPlotDto(plot),
        warning: screening.warning,
        created: true,
        tier,
        screening: { screenedBy: screening.screenedBy, held: !screening.visible },
        manageToken: manage.token,
        notificationEmail,
      };
    } catch (error) {
      if (isOverlapViolation(error)) throw new AppError('TILE_UNAVAILABLE', TILE_UNAVAILABLE_MESSAGE);
      if (isUniqueViolation(error)) {
        // Another request with this session won the race: same claim → its plot, otherwise refused.
        const winner = await findBySession(db, claim.stripeSessionId);
        if (winner) return replayOrRefuse(winner, claim);
        // Another claim took the same top-left tile in the same millisecond, so the same id: a lost race like any other.
        if (isUniqueViolation(error, 'plots_pkey')) throw new AppError('TILE_UNAVAILABLE', TILE_UNAVAILABLE_MESSAGE);
      }
      if (attempt < MAX_TRANSACTION_ATTEMPTS && isRetryableTransactionError(error)) {
        // Overlapping inserts can deadlock on the exclusion constraint's index; PostgreSQL aborts one.
        // A random pause keeps the same contenders from colliding again in lock-step.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 40 * attempt));
        continue;
      }
      throw error;
    }
  }
}
