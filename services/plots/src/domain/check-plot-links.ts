import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import { SCHEMA, TABLE, type PrismaClient } from '../db.ts';
import type { LinkProber, ProbeResult } from './probe-link.ts';

const LINK_CHECKS = `"${SCHEMA}"."link_checks"`;

export interface LinkCheckSchedule {
  /** How long after a check the same link is checked again. */
  recheckMs: number;
  /** Links leased per round. */
  batchSize: number;
  /** Links probed at once per process. */
  concurrency: number;
  /** A leased link not recorded within this long (the replica died) may be taken by another replica. */
  leaseMs: number;
  /** Consecutive failures before a link can be marked unreachable ... */
  unreachableAfterFailures: number;
  /** ... and the least time those failures must span (3 days by default). */
  unreachableAfterMs: number;
}

export interface CheckPlotLinksOptions {
  db: PrismaClient;
  prober: LinkProber;
  schedule: LinkCheckSchedule;
  /** This replica's lease name: a result is recorded only while the row is still leased to it. */
  workerId: string;
  now?: () => Date;
  /** Called with each recorded outcome (metrics). */
  onChecked?: (outcome: { result: ProbeResult; status: LinkStatus; becameUnreachable: boolean }) => void;
}

type LinkStatus = 'ok' | 'failing' | 'unreachable';

interface LeasedRow {
  plot_id: string;
  url: string;
}

/**
 * Brings `link_checks` in line with the plots: a row for every public plot with a link, the row started over
 * (unchecked, due now) when the plot's link changed, and gone when the plot lost its link or was removed/hidden.
 */
async function syncLinkChecks(db: PrismaClient, now: Date): Promise<void> {
  await db.$executeRawUnsafe(
    `DELETE FROM ${LINK_CHECKS} c USING ${TABLE.plots} p
      WHERE p.id = c.plot_id AND (p.link IS NULL OR p.removed_at IS NOT NULL OR NOT p.visible)`,
  );
  await db.$executeRawUnsafe(
    `UPDATE ${LINK_CHECKS} c
        SET url = p.link, status = 'unchecked', consecutive_failures = 0, failing_since = NULL, last_ok_at = NULL,
            last_checked_at = NULL, last_error = NULL, next_check_at = $1, lease_until = NULL, lease_owner = NULL
       FROM ${TABLE.plots} p
      WHERE p.id = c.plot_id AND p.link IS NOT NULL AND p.link <> c.url`,
    now,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO ${LINK_CHECKS} (plot_id, url, next_check_at)
     SELECT p.id, p.link, $1 FROM ${TABLE.plots} p
      WHERE p.link IS NOT NULL AND p.removed_at IS NULL AND p.visible
     ON CONFLICT (plot_id) DO NOTHING`,
    now,
  );
}

/** Leases up to `batchSize` due links to this worker; rows another replica holds are skipped, never waited for. */
async function leaseDueLinks(db: PrismaClient, workerId: string, schedule: LinkCheckSchedule, now: Date): Promise<LeasedRow[]> {
  return db.$queryRawUnsafe<LeasedRow[]>(
    `UPDATE ${LINK_CHECKS} c SET lease_until = $1, lease_owner = $2
      WHERE c.plot_id IN (
        SELECT plot_id FROM ${LINK_CHECKS}
         WHERE next_check_at <= $3 AND (lease_until IS NULL OR lease_until < $3)
         ORDER BY next_check_at
         LIMIT $4
         FOR UPDATE SKIP LOCKED)
      RETURNING c.plot_id, c.url`,
    new Date(now.getTime() + schedule.leaseMs),
    workerId,
    now,
    schedule.batchSize,
  );
}

/**
 * Records one probe: ok clears any failure run (and the unreachable mark); a failure extends the run and marks the
 * link unreachable once it has failed `unreachableAfterFailures` times over at least `unreachableAfterMs`, emitting
 * `plots.link.unreachable` once per run in the same transaction. Dropped when the lease is no longer ours or the
 * link changed meanwhile.
 */
async function recordProbe(options: CheckPlotLinksOptions, leased: LeasedRow, result: ProbeResult, now: Date) {
  const { db, schedule, workerId } = options;
  return db.$transaction(async (tx) => {
    const row = await tx.linkCheck.findFirst({
      where: { plotId: leased.plot_id, url: leased.url, leaseOwner: workerId },
      include: { plot: { select: { displayName: true, x: true, y: true, link: true } } },
    });
    if (!row || row.plot.link !== leased.url) return null;
    const next = { nextCheckAt: new Date(now.getTime() + schedule.recheckMs), leaseUntil: null, leaseOwner: null, lastCheckedAt: now };
    if (result.ok) {
      await tx.linkCheck.update({
        where: { plotId: row.plotId },
        data: { ...next, status: 'ok', consecutiveFailures: 0, failingSince: null, lastOkAt: now, lastError: null },
      });
      return { status: 'ok' as const, becameUnreachable: false };
    }
    const failures = row.consecutiveFailures + 1;
    const failingSince = row.failingSince ?? now;
    const unreachable =
      failures >= schedule.unreachableAfterFailures && now.getTime() - failingSince.getTime() >= schedule.unreachableAfterMs;
    const status: LinkStatus = unreachable ? 'unreachable' : 'failing';
    await tx.linkCheck.update({
      where: { plotId: row.plotId },
      data: { ...next, status, consecutiveFailures: failures, failingSince, lastError: result.error },
    });
    const becameUnreachable = unreachable && row.status !== 'unreachable';
    if (becameUnreachable) {
      await enqueueEvent({
        tx,
        schema: SCHEMA,
        type: 'plots.link.unreachable',
        data: {
          plotId: row.plotId,
          displayName: row.plot.displayName,
          x: row.plot.x,
          y: row.plot.y,
          link: leased.url,
          failingSince: failingSince.toISOString(),
          consecutiveFailures: failures,
          lastError: result.error,
        },
      });
    }
    return { status, becameUnreachable };
  });
}

/**
 * One round of the link checker: sync the rows with the plots, lease the due links, probe them (at most
 * `concurrency` at once) and record each result. Returns how many links were checked. Replicas run it at the
 * same time safely: a link is leased to one of them only (FOR UPDATE SKIP LOCKED), until recorded or the lease ends.
 */
export async function checkPlotLinks(options: CheckPlotLinksOptions): Promise<number> {
  const now = options.now ?? (() => new Date());
  await syncLinkChecks(options.db, now());
  const leased = await leaseDueLinks(options.db, options.workerId, options.schedule, now());
  let next = 0;
  let checked = 0;
  const lane = async () => {
    while (next < leased.length) {
      const row = leased[next++]!;
      const result = await options.prober.probe(row.url);
      const recorded = await recordProbe(options, row, result, now());
      if (!recorded) continue;
      checked += 1;
      options.onChecked?.({ result, ...recorded });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.schedule.concurrency, leased.length) }, lane));
  return checked;
}
