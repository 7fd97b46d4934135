import { clientKey } from '@pixel-atlas/service-kit/client-key';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { SCHEMA, type PrismaClient } from '../db.ts';
import { createAdminSession } from './admin-sessions.ts';
import { readDeviceCookie } from './device-cookies.ts';
import { verifyPassword } from './passwords.ts';

export interface LoginThrottlePolicy {
  /** Attempts per (username, client) before delays start. */
  freeAttemptsPerClient: number;
  /** The delay after the last free attempt; it doubles with each further attempt... */
  firstDelaySeconds: number;
  /** ...up to this. */
  maxDelaySeconds: number;
  /** A (username, client) pair quiet this long starts over. */
  forgetAfterMinutes: number;
  /** Attempts per username per hour across all clients: what a botnet gets at most. */
  maxAttemptsPerUsernamePerHour: number;
}

export const LOGIN_THROTTLE: LoginThrottlePolicy = {
  freeAttemptsPerClient: 5,
  firstDelaySeconds: 1,
  maxDelaySeconds: 15 * 60,
  forgetAfterMinutes: 60,
  maxAttemptsPerUsernamePerHour: 1000,
};

/**
 * A browser with a valid device cookie for this username: its own few free attempts and short delays, counted under
 * the cookie alone. Strangers never touch this budget, and it never touches the username's hourly ceiling.
 */
export const DEVICE_THROTTLE: Omit<LoginThrottlePolicy, 'maxAttemptsPerUsernamePerHour'> = {
  freeAttemptsPerClient: 5,
  firstDelaySeconds: 1,
  maxDelaySeconds: 5 * 60,
  forgetAfterMinutes: 60,
};

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid username or password';

/** A sign-in refused before the password was looked at; the route turns retryAfterSeconds into Retry-After. */
export class SignInThrottledError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    const wait = retryAfterSeconds <= 90 ? `${retryAfterSeconds} second` : `${Math.ceil(retryAfterSeconds / 60)} minute`;
    const plural = retryAfterSeconds === 1 || (retryAfterSeconds > 90 && Math.ceil(retryAfterSeconds / 60) === 1) ? '' : 's';
    super('RATE_LIMITED', `Too many failed sign-in attempts. Please try again in ${wait}${plural}.`);
  }
}

export interface SignInAdminOptions {
  db: PrismaClient;
  username: string;
  password: string;
  clientIp: string;
  userAgent: string | null;
  now?: Date;
  policy?: LoginThrottlePolicy;
  /** The browser's device cookie and the key it is signed with (see device-cookies.ts). */
  device?: { secret: Buffer; cookie: string | undefined };
  /** The password check (tests count its calls). */
  verify?: (passwordHash: string | null, password: string) => Promise<boolean>;
}

/**
 * Checks the password and opens a session. Each attempt is first reserved in PostgreSQL (so every
 * gateway replica shares the count, and parallel guesses cannot overrun it). A browser with a valid
 * device cookie for this username is counted under that cookie only (a few free attempts, then short
 * delays). A stranger is counted per (username, client): a few free attempts, then 1 s, 2 s, 4 s ...
 * between attempts; and per username across all strangers: an hourly ceiling, which a botnet can fill,
 * but which never blocks a known browser or a passkey. Refusals look the same whether or not the
 * username exists.
 */
export async function signInAdmin(options: SignInAdminOptions): Promise<{ token: string; username: string }> {
  const { db, clientIp } = options;
  const policy = options.policy ?? LOGIN_THROTTLE;
  const now = options.now ?? new Date();
  const username = options.username.trim();
  const deviceId = options.device && readDeviceCookie({ secret: options.device.secret, cookie: options.device.cookie, username, now });
  const keys = deviceId
    ? { pair: `device:${deviceId}` }
    : { pair: `user-client:${username.toLowerCase()}|${clientKey(clientIp)}`, user: `user:${username.toLowerCase()}` };
  await reserveAttempt(db, keys, now, deviceId ? { ...DEVICE_THROTTLE, maxAttemptsPerUsernamePerHour: 0 } : policy);
  const user = await db.adminUser.findUnique({ where: { username } });
  const ok = await (options.verify ?? verifyPassword)(user?.passwordHash ?? null, options.password);
  if (!ok || !user) throw new AppError('INVALID_CREDENTIALS', INVALID_CREDENTIALS_MESSAGE);
  // A success was not a failure: this client starts over, and the username's hourly count gives the attempt back.
  await db.$transaction([
    db.loginThrottle.deleteMany({ where: { key: keys.pair } }),
    ...(keys.user
      ? [db.$executeRawUnsafe(`UPDATE ${TABLE} SET "failures" = GREATEST("failures" - 1, 0) WHERE "key" = $1`, keys.user)]
      : []),
  ]);
  const token = await createAdminSession({ db, userId: user.id, clientIp, userAgent: options.userAgent });
  return { token, username: user.username };
}

const TABLE = `"${SCHEMA}"."login_throttle"`;

// $1 key, $2 now, $3 forget before, $4 free attempts, $5 first delay s, $6 max delay s.
const attemptsAfter = `(CASE WHEN t."last_attempt_at" < $3::timestamptz THEN 1 ELSE t."failures" + 1 END)`;
const lockAfter = (attempts: string) =>
  `CASE WHEN ${attempts} >= $4::int THEN $2::timestamptz + make_interval(secs => LEAST($6::float8, $5::float8 * power(2::float8, LEAST(${attempts} - $4::int, 30)))) END`;
/** Reserves an attempt for one (username, client) unless it is inside its delay; no row back = refused. */
const RESERVE_FOR_CLIENT = `
  INSERT INTO ${TABLE} AS t ("key", "failures", "window_start", "locked_until", "last_attempt_at")
  VALUES ($1, 1, $2::timestamptz, ${lockAfter('1')}, $2::timestamptz)
  ON CONFLICT ("key") DO UPDATE SET
    "failures" = ${attemptsAfter},
    "locked_until" = ${lockAfter(attemptsAfter)},
    "last_attempt_at" = $2::timestamptz
  WHERE t."locked_until" IS NULL OR t."locked_until" <= $2::timestamptz OR t."last_attempt_at" < $3::timestamptz
  RETURNING "failures"`;

// $1 key, $2 now, $3 window start (now - 1 h), $4 ceiling.
/** Reserves an attempt in a username's hourly window unless the ceiling is reached; no row back = refused. */
const RESERVE_FOR_USERNAME = `
  INSERT INTO ${TABLE} AS t ("key", "failures", "window_start", "last_attempt_at")
  VALUES ($1, 1, $2::timestamptz, $2::timestamptz)
  ON CONFLICT ("key") DO UPDATE SET
    "failures" = CASE WHEN t."window_start" <= $3::timestamptz THEN 1 ELSE t."failures" + 1 END,
    "window_start" = CASE WHEN t."window_start" <= $3::timestamptz THEN $2::timestamptz ELSE t."window_start" END,
    "last_attempt_at" = $2::timestamptz
  WHERE t."window_start" <= $3::timestamptz OR t."failures" < $4::int
  RETURNING "failures"`;

const RESERVATION_WAIT = { maxWait: 30_000, timeout: 30_000 };

class Refused extends Error {
  constructor(readonly until: Date) {
    super(`sign-in attempts refused until ${until.toISOString()}`);
  }
}

/**
 * Takes one attempt from both budgets (a device's: only its own) in one transaction, before any
 * password is checked. Each upsert locks its row, so concurrent attempts on any replica queue and see
 * each other's counts; a refusal by the username's ceiling rolls back the client's reservation too.
 */
async function reserveAttempt(
  db: PrismaClient,
  keys: { pair: string; user?: string },
  now: Date,
  policy: LoginThrottlePolicy,
): Promise<void> {
  const forgetBefore = new Date(now.getTime() - policy.forgetAfterMinutes * 60_000);
  const windowStart = new Date(now.getTime() - 3_600_000);
  try {
    await db.$transaction(async (tx) => {
      const forClient = await tx.$queryRawUnsafe<Array<{ failures: number }>>(
        RESERVE_FOR_CLIENT,
        keys.pair,
        now,
        forgetBefore,
        policy.freeAttemptsPerClient,
        policy.firstDelaySeconds,
        policy.maxDelaySeconds,
      );
      if (!forClient.length) {
        // The upsert returned nothing because the row is there and over budget (and locked by this transaction).
        const [row] = await tx.$queryRawUnsafe<[{ locked_until: Date }]>(`SELECT "locked_until" FROM ${TABLE} WHERE "key" = $1`, keys.pair);
        throw new Refused(row.locked_until);
      }
      if (!keys.user) return;
      const forUser = await tx.$queryRawUnsafe<Array<{ failures: number }>>(
        RESERVE_FOR_USERNAME,
        keys.user,
        now,
        windowStart,
        policy.maxAttemptsPerUsernamePerHour,
      );
      if (!forUser.length) {
        const [row] = await tx.$queryRawUnsafe<[{ window_start: Date }]>(`SELECT "window_start" FROM ${TABLE} WHERE "key" = $1`, keys.user);
        throw new Refused(new Date(row.window_start.getTime() + 3_600_000));
      }
      // In a flood, attempts queue for a pooled connection and for the username's row lock: Prisma's defaults (2 s to get
      // a connection, 5 s in all) would turn that queue into 500s, for the admin's own attempt too.
    }, RESERVATION_WAIT);
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    throw new SignInThrottledError(Math.max(1, Math.ceil((error.until.getTime() - now.getTime()) / 1000)));
  }
}

/**
 * Forgets throttle rows unused for two hours (past both the hourly window and the forget time), so
 * names tried once by a scanner do not pile up.
 */
export async function pruneLoginThrottle(options: { db: PrismaClient; now?: Date }): Promise<number> {
  const now = options.now ?? new Date();
  const { count } = await options.db.loginThrottle.deleteMany({
    where: { lastAttemptAt: { lt: new Date(now.getTime() - 2 * 3_600_000) } },
  });
  return count;
}
