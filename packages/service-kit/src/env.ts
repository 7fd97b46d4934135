import { z } from 'zod';

/** The shapes env keys share, so each service's schema names its keys and defaults and nothing else. */
export const envField = {
  /** A port to listen on; 0 lets the system pick a free one. */
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  /** A count, or a duration in milliseconds, that must be above zero. */
  positiveInt: (fallback: number) => z.coerce.number().int().positive().default(fallback),
  /** A count, or a duration in milliseconds, where 0 is allowed (for an interval or a cache age: off). */
  nonNegativeInt: (fallback: number) => z.coerce.number().int().min(0).default(fallback),
  /** `KEY=` in an env file or a compose file means "not set", so the key's default or its absence applies. */
  emptyAsUnset: <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema),
};

/** Settings every service reads; a service extends this object with its own keys. */
export const baseEnvShape = {
  /**
   * Unset means production (ARCHITECTURE.md section 7), in every service alike: only an explicit development or test
   * turns on development conveniences (the built-in test checkout, derived secrets, localhost links), so a forgotten
   * NODE_ENV never runs a live site on them. `npm start` passes development, the test helpers test.
   */
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }),
  NATS_URL: z.string().min(1, 'must name at least one NATS server'),
  NATS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .default('PIXEL_ATLAS'),
  NATS_SUBJECT_PREFIX: z
    .string()
    .regex(/^([A-Za-z0-9_-]+\.)?$/, 'empty, or a token ending in a dot')
    .default(''),
  /**
   * Copies of the event stream (and of each durable consumer, which follows its stream) a NATS cluster keeps: 1 on
   * one broker, 3 on a three-node cluster, so any one node may die without losing an event (docs/scaling.md).
   */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** This service's NATS user (default: the service's name) and password; the broker grants each user only its own subjects. */
  NATS_USER: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
    .optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
  INTERNAL_TOKEN: z.string().min(16, 'must be at least 16 characters (shared secret between gateway and services)'),
  SHUTDOWN_TIMEOUT_MS: envField.positiveInt(10_000),
  /**
   * Internal port for Prometheus `/metrics` and detailed `/readyz` (never the service's own port when that port is public).
   * 0 picks a free port, logged at start, so several services can share one host; compose pins it to 9100.
   */
  METRICS_PORT: envField.port(0),
  /**
   * The address the operations port listens on: loopback (127.0.0.1) unless set, so `/metrics` and the detailed
   * `/readyz` never reach another host by accident. Compose sets 0.0.0.0: Prometheus scrapes over the private network.
   */
  OPS_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /**
   * Bounds on every connection to the service's own port (see `listenerOptions` in service.ts), so a client that
   * sends slowly or sits idle cannot hold a socket for long: the headers must arrive within HTTP_HEADERS_TIMEOUT_MS,
   * the whole request (headers and body) within HTTP_REQUEST_TIMEOUT_MS, an idle keep-alive connection is closed after
   * HTTP_KEEP_ALIVE_TIMEOUT_MS, one with no traffic at all after HTTP_IDLE_TIMEOUT_MS, and a connection after
   * HTTP_MAX_REQUESTS_PER_SOCKET requests. A stalled request is closed at most HTTP_TIMEOUT_CHECK_MS after its limit.
   */
  HTTP_HEADERS_TIMEOUT_MS: envField.positiveInt(10_000),
  HTTP_REQUEST_TIMEOUT_MS: envField.positiveInt(60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: envField.positiveInt(5_000),
  HTTP_IDLE_TIMEOUT_MS: envField.positiveInt(120_000),
  HTTP_MAX_REQUESTS_PER_SOCKET: envField.positiveInt(1000),
  HTTP_TIMEOUT_CHECK_MS: envField.positiveInt(1000),
  /**
   * Reconciliation (reconcile.ts): published outbox rows are kept OUTBOX_RETENTION_DAYS (then pruned), so consumers can
   * apply what the bus lost; each consumer compares its producers' published ids with its inbox every
   * RECONCILE_INTERVAL_MS and applies those published more than RECONCILE_GRACE_MS ago and still missing (0: off).
   */
  OUTBOX_RETENTION_DAYS: envField.positiveInt(7),
  RECONCILE_GRACE_MS: envField.nonNegativeInt(60_000),
  RECONCILE_INTERVAL_MS: envField.positiveInt(30_000),
} as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once at boot; every bad or missing key is named in the error. */
export function parseEnv<S extends z.ZodObject>(schema: S, source: Record<string, string | undefined> = process.env): z.infer<S> {
  const result = schema.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = issue.path.join('.') || '(root)';
    const missing = issue.code === 'invalid_type' && source[key] === undefined;
    return `${key}: ${missing ? 'is required but not set' : issue.message}`;
  });
  throw new ConfigError(problems);
}

/** A service's `loadEnv`: its schema parsed from `source`, process.env unless a test gives its own. */
export function envLoader<S extends z.ZodObject>(schema: S): (source?: Record<string, string | undefined>) => z.infer<S> {
  return (source = process.env) => parseEnv(schema, source);
}

/**
 * Reports a key that production needs as missing. An unset NODE_ENV counts as production, so a forgotten NODE_ENV
 * never runs a live site on a development default.
 */
export function requireOutsideDevelopment(ctx: z.RefinementCtx, key: string, why: string): void {
  ctx.addIssue({
    code: 'custom',
    path: [key],
    message: `is required unless NODE_ENV is explicitly development or test (unset counts as production): ${why}`,
  });
}

export type BaseEnv = z.infer<z.ZodObject<typeof baseEnvShape>>;
