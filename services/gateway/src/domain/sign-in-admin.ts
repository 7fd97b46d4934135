import { AppError } from '@pixel-atlas/service-kit/errors';
import type { PrismaClient } from '../db.ts';
import { createAdminSession } from './admin-sessions.ts';
import { verifyPassword } from './passwords.ts';

export const LOGIN_THROTTLE = {
  windowMinutes: 15,
  lockMinutes: 15,
  maxFailuresPerUsername: 5,
  maxFailuresPerClient: 20,
} as const;

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid username or password';

export interface SignInAdminOptions {
  db: PrismaClient;
  username: string;
  password: string;
  clientIp: string;
  userAgent: string | null;
  now?: Date;
}

/**
 * Checks the password and opens a session. Failures are counted per username and per client in the
 * database (so every gateway replica sees them); too many lock that key for a while.
 */
export async function signInAdmin(options: SignInAdminOptions): Promise<{ token: string; username: string }> {
  const { db, clientIp } = options;
  const now = options.now ?? new Date();
  const username = options.username.trim();
  const keys = [
    { key: `user:${username.toLowerCase()}`, max: LOGIN_THROTTLE.maxFailuresPerUsername },
    { key: `ip:${clientIp}`, max: LOGIN_THROTTLE.maxFailuresPerClient },
  ];
  const locks = await db.loginThrottle.findMany({ where: { key: { in: keys.map((k) => k.key) }, lockedUntil: { gt: now } } });
  if (locks.length) {
    const until = Math.max(...locks.map((l) => l.lockedUntil!.getTime()));
    const minutes = Math.max(1, Math.ceil((until - now.getTime()) / 60_000));
    throw new AppError('RATE_LIMITED', `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  }
  const user = await db.adminUser.findUnique({ where: { username } });
  const ok = await verifyPassword(user?.passwordHash ?? null, options.password);
  if (!ok || !user) {
    await recordFailures(db, keys, now);
    throw new AppError('INVALID_CREDENTIALS', INVALID_CREDENTIALS_MESSAGE);
  }
  await db.loginThrottle.deleteMany({ where: { key: keys[0].key } });
  const token = await createAdminSession({ db, userId: user.id, clientIp, userAgent: options.userAgent });
  return { token, username: user.username };
}

async function recordFailures(db: PrismaClient, keys: Array<{ key: string; max: number }>, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - LOGIN_THROTTLE.windowMinutes * 60_000);
  for (const { key, max } of keys) {
    // One statement per key so concurrent failures on several replicas all count.
    const [row] = await db.$queryRawUnsafe<Array<{ failures: number }>>(
      `INSERT INTO "gateway"."login_throttle" ("key", "failures", "window_start") VALUES ($1, 1, $2)
       ON CONFLICT ("key") DO UPDATE SET
         "failures" = CASE WHEN "login_throttle"."window_start" < $3 THEN 1 ELSE "login_throttle"."failures" + 1 END,
         "window_start" = CASE WHEN "login_throttle"."window_start" < $3 THEN $2 ELSE "login_throttle"."window_start" END
       RETURNING "failures"`,
      key,
      now,
      windowStart,
    );
    if (row.failures >= max) {
      await db.loginThrottle.update({ where: { key }, data: { lockedUntil: new Date(now.getTime() + LOGIN_THROTTLE.lockMinutes * 60_000), failures: 0 } });
    }
  }
}
