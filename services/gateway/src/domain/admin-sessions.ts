import { createHash, randomBytes } from 'node:crypto';
import type { PrismaClient } from '../db.ts';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createAdminSession(options: {
  db: PrismaClient;
  userId: string;
  clientIp: string | null;
  userAgent: string | null;
}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await options.db.adminSession.create({
    data: { id: tokenHash(token), userId: options.userId, clientIp: options.clientIp, userAgent: options.userAgent?.slice(0, 300) ?? null },
  });
  return token;
}

// Writing last_seen_at on every request would turn reads into writes; a minute's resolution is plenty for a 30-minute idle limit.
const TOUCH_AFTER_MS = 60_000;

/** The signed-in admin for a cookie token, or null when unknown, revoked, idle too long or too old. */
export async function resolveAdminSession(options: { db: PrismaClient; token: string; policy: SessionPolicy; now?: Date }) {
  const now = options.now ?? new Date();
  const session = await options.db.adminSession.findUnique({ where: { id: tokenHash(options.token) }, include: { user: true } });
  if (!session || session.revokedAt) return null;
  const idleLimit = options.policy.idleMinutes * 60_000;
  const absoluteLimit = options.policy.absoluteHours * 3_600_000;
  if (now.getTime() - session.lastSeenAt.getTime() > idleLimit || now.getTime() - session.createdAt.getTime() > absoluteLimit) {
    await options.db.adminSession.update({ where: { id: session.id }, data: { revokedAt: now } });
    return null;
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
    await options.db.adminSession.update({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  return { sessionId: session.id, username: session.user.username };
}

export async function revokeAdminSession(options: { db: PrismaClient; token: string }): Promise<void> {
  await options.db.adminSession.updateMany({ where: { id: tokenHash(options.token), revokedAt: null }, data: { revokedAt: new Date() } });
}
