import type { FastifyBaseLogger } from 'fastify';
import type { PrismaClient } from '../db.ts';
import type { PaymentsMetrics } from '../metrics.ts';
import type { CheckoutProvider } from '../providers/provider.ts';
import { fulfilCheckoutSession } from './fulfil-checkout-session.ts';

const GIVE_UP_AFTER_MS = 2 * 24 * 60 * 60 * 1000;
/**
 * Advisory locks are per database, shared by every service's schema: the key is derived from a name no
 * other lock uses (the migration runner's is a fixed number).
 */
const SWEEP_LOCK_NAME = 'payments.settle-expired-checkouts';
/** Slack for the provider call in flight when the budget runs out (Stripe's SDK waits up to 80 s). */
const IN_FLIGHT_SLACK_MS = 90_000;

export interface SettleExpiredCheckoutsOptions {
  db: PrismaClient;
  provider: CheckoutProvider;
  log: FastifyBaseLogger;
  metrics: PaymentsMetrics;
  /**
   * Grace after the session's expiry before we ask. None by default: a hold must end as soon as its session does
   * (the ceiling on held land counts it until then), and the test checkout sends no expiry notice at all.
   */
  graceMs?: number;
  batchSize?: number;
  /** No new session is started after this long, so the elected sweeper's lock is held for a bounded time. */
  budgetMs?: number;
}

/**
 * Pending payments whose checkout session has passed its expiry go through fulfilment once more: the
 * provider's answer decides (expired → payments.checkout.expired frees the hold; paid after all → verified).
 * Covers the test checkout (no provider webhooks) and lost Stripe notices.
 *
 * Every replica ticks, but one sweeps: the tick that wins a transaction-scoped advisory lock does the work
 * and the others return at once, so the provider is asked about each session once per tick, not once per
 * replica. The lock goes with the transaction (commit, rollback or a lost connection), so a replica that
 * dies mid-sweep never blocks the next tick elsewhere. Returns null when another sweep holds the lock.
 */
export async function settleExpiredCheckouts(options: SettleExpiredCheckoutsOptions): Promise<number | null> {
  const budgetMs = options.budgetMs ?? 30_000;
  return options.db.$transaction(
    async (tx) => {
      const [lock] = await tx.$queryRaw<
        Array<{ locked: boolean }>
      >`SELECT pg_try_advisory_xact_lock(hashtext(${SWEEP_LOCK_NAME})) AS locked`;
      if (!lock?.locked) return null;
      // The transaction only holds the lock: fulfilment runs its own transactions beside it.
      return sweep(options, Date.now() + budgetMs);
    },
    // maxWait: Prisma's 2 s for a pooled connection is too short on a busy machine (replicas sweep every 15 s).
    { timeout: budgetMs + IN_FLIGHT_SLACK_MS, maxWait: 10_000 },
  );
}

async function sweep(options: SettleExpiredCheckoutsOptions, deadline: number): Promise<number> {
  const { db, graceMs = 0, batchSize = 50 } = options;
  const now = Date.now();
  const stale = await db.payment.findMany({
    // Bounded look-back: a session the provider still calls unpaid days later (or a mismatch) is left to people.
    where: { status: 'pending', expiresAt: { lt: new Date(now - graceMs), gt: new Date(now - GIVE_UP_AFTER_MS) } },
    orderBy: { expiresAt: 'asc' },
    take: batchSize,
    select: { stripeSessionId: true },
  });
  let settled = 0;
  for (const { stripeSessionId } of stale) {
    if (Date.now() > deadline) break;
    try {
      const outcome = await fulfilCheckoutSession({ ...options, sessionId: stripeSessionId });
      if (outcome.state !== 'unpaid') settled += 1;
    } catch (error) {
      options.log.warn({ err: error, sessionId: stripeSessionId }, 'could not settle an expired checkout; will retry');
    }
  }
  return settled;
}
