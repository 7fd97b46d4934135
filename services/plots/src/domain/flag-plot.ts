import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Tier } from '@pixel-atlas/contracts/tiers';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { enqueueEvent } from '@pixel-atlas/service-kit/outbox';
import { SCHEMA, TABLE, type PrismaClient } from '../db.ts';
import { PLOT_NOT_FOUND_MESSAGE } from './get-plot.ts';
import { isRetryableTransactionError, isUniqueViolation } from './footprints.ts';

/** The long-lived random cookie that tells one visitor from another (nothing else is in it). */
export const VISITOR_COOKIE = 'pa_visitor';
export const VISITOR_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const VISITOR_COOKIE_FORMAT = /^[A-Za-z0-9_-]{16,128}$/;

export function newVisitorCookie(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The visitor cookie's signing secret outside production, when VISITOR_COOKIE_SECRET is not set: derived from
 * the internal token (a secret every deployment already has), never the token itself.
 */
export function defaultVisitorCookieSecret(internalToken: string): string {
  return createHmac('sha256', internalToken).update('pixel-atlas pa_visitor cookie signing').digest('base64url');
}

/** A cookie value we could have issued (anything else is ignored and replaced). */
export function isVisitorCookie(value: string | undefined): value is string {
  return typeof value === 'string' && VISITOR_COOKIE_FORMAT.test(value);
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Who is flagging. With the visitor cookie: the cookie (hashed; the raw value is never stored). Without one
 * (curl, a browser refusing cookies, a first visit): the client address, and the hash of the cookie issued
 * with this response, so that browser's later flags (which will carry it) are recognised as the same visitor.
 */
export interface Visitor {
  key: string;
  cookieHash: string;
}

export function visitorFor({
  cookie,
  issuedCookie,
  clientIp,
}: {
  cookie: string | null;
  issuedCookie: string | null;
  clientIp: string;
}): Visitor {
  if (cookie) return { key: `cookie:${sha256(cookie)}`, cookieHash: sha256(cookie) };
  if (!issuedCookie) throw new Error('a cookieless flag needs the cookie issued with its response');
  return { key: `ip:${clientIp}`, cookieHash: sha256(issuedCookie) };
}

export interface FlagPlotOptions {
  db: PrismaClient;
  plotId: string;
  reason: string | null;
  visitor: Visitor;
  /** true when the visitor came with a cookie (its flags are found by the cookie), false when keyed by address. */
  byCookie: boolean;
  requestId?: string;
}

export interface FlagPlotResult {
  /** false: this visitor had already flagged the plot (nothing changed, no event). */
  created: boolean;
  flagCount: number;
}

interface LockedPlot {
  id: string;
  zone: string;
  tier: string;
  x: number;
  y: number;
  display_name: string;
  message: string;
  link: string | null;
  created_at: Date;
}

/**
 * POST /api/flag-plot. One flag per visitor per plot. A new flag marks the plot flagged (pending review)
 * and enqueues `plots.plot.flagged` (snapshot, distinct flaggers, reason) in the same transaction; the plot
 * stays visible: a visitor flag never hides a plot, only an admin's rejection removes it. The plot row is
 * locked for the transaction, so concurrent flags count one after another and each event's count is exact.
 * Unknown, hidden (under review) and removed plots are not found.
 */
export async function flagPlot(options: FlagPlotOptions): Promise<FlagPlotResult> {
  const { db, plotId, visitor } = options;
  const attempt = () =>
    db.$transaction(
      async (tx) => {
        const [plot] = await tx.$queryRawUnsafe<LockedPlot[]>(
          `SELECT "id"::text AS id, "zone", "tier", "x", "y", "display_name", "message", "link", "created_at"
             FROM ${TABLE.plots} WHERE "id" = $1::uuid AND "visible" AND "removed_at" IS NULL FOR UPDATE`,
          plotId,
        );
        if (!plot) throw new AppError('PLOT_NOT_FOUND', PLOT_NOT_FOUND_MESSAGE);

        const already = await tx.plotFlag.findFirst({
          where: options.byCookie ? { plotId, cookieHash: visitor.cookieHash } : { plotId, visitorKey: visitor.key },
          select: { id: true },
        });
        const count = () => tx.plotFlag.count({ where: { plotId } });
        if (already) return { created: false, flagCount: await count() };

        await tx.plotFlag.create({ data: { plotId, visitorKey: visitor.key, cookieHash: visitor.cookieHash, reason: options.reason } });
        await tx.plot.update({ where: { id: plotId }, data: { flagged: true } });
        const flagCount = await count();
        await enqueueEvent({
          tx,
          schema: SCHEMA,
          type: 'plots.plot.flagged',
          requestId: options.requestId,
          data: {
            plotId: plot.id,
            displayName: plot.display_name,
            zone: plot.zone,
            tier: plot.tier as Tier,
            x: plot.x,
            y: plot.y,
            message: plot.message,
            link: plot.link,
            createdAt: plot.created_at.toISOString(),
            flagCount,
            reason: options.reason,
          },
        });
        return { created: true, flagCount };
      },
      { maxWait: 15_000, timeout: 15_000 },
    );

  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      // The plot lock makes these rare; a unique violation means this visitor's flag just landed: same answer.
      if (tries < 3 && (isRetryableTransactionError(error) || isUniqueViolation(error))) continue;
      throw error;
    }
  }
}
