import {
  ClosedConnectionError,
  ConnectionError,
  DrainingConnectionError,
  NoRespondersError,
  RequestError,
  TimeoutError,
} from '@nats-io/nats-core';

/**
 * The one place that decides whether a failure is transient (the same work will succeed later, untouched)
 * or permanent. It reads codes only, never messages: PostgreSQL SQLSTATEs, Prisma error codes, the kinds
 * of Prisma's driver-adapter errors, Node socket codes, NATS error classes and AppError statuses.
 */

/** SQLSTATEs: the database is going away or refusing work for now, or contention aborted the transaction. */
const TRANSIENT_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available (lock_timeout)
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up / shutting down)
  '53000', // insufficient_resources
  '53100', // disk_full
  '53200', // out_of_memory
  '53300', // too_many_connections
  '58000', // system_error
  '58030', // io_error
]);
/** Class 08: connection exceptions. */
const TRANSIENT_SQLSTATE_CLASSES = ['08'];

/** Prisma: server unreachable or timed out, connection closed, pool timeout, transaction API error, write conflict. */
const TRANSIENT_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2034']);

/** `@prisma/adapter-pg` error kinds (meta.driverAdapterError.cause.kind). */
const TRANSIENT_ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TransactionWriteConflict',
]);

/** Node socket errors (pg, fetch, anything talking to a peer). */
const TRANSIENT_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

/** AppError codes (see `@pixel-atlas/contracts/errors`) that mean another service did not answer in time. */
const TRANSIENT_APP_CODES = new Set(['UPSTREAM_UNAVAILABLE', 'TIMEOUT', 'NOT_READY']);

const NATS_UNAVAILABLE = [ConnectionError, ClosedConnectionError, DrainingConnectionError, TimeoutError, NoRespondersError, RequestError];

function transientCode(code: unknown): boolean {
  if (typeof code !== 'string') return false;
  return (
    TRANSIENT_SQLSTATES.has(code) ||
    (code.length === 5 && TRANSIENT_SQLSTATE_CLASSES.includes(code.slice(0, 2))) ||
    TRANSIENT_PRISMA_CODES.has(code) ||
    TRANSIENT_SOCKET_CODES.has(code)
  );
}

/** True when the error, or anything it wraps (cause chain, Prisma's driver-adapter error), is transient. */
export function isTransientFailure(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 6) return false;
  if (NATS_UNAVAILABLE.some((type) => error instanceof type)) return true;
  const e = error as {
    name?: unknown;
    code?: unknown;
    originalCode?: unknown;
    kind?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: unknown };
    errors?: unknown;
  };
  if (transientCode(e.code) || transientCode(e.originalCode)) return true;
  if (typeof e.kind === 'string' && TRANSIENT_ADAPTER_KINDS.has(e.kind)) return true;
  if (e.name === 'AppError' && typeof e.code === 'string' && TRANSIENT_APP_CODES.has(e.code)) return true;
  // AggregateError (e.g. pg trying IPv4 and IPv6 of one host): transient only if every attempt was.
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((inner) => isTransientFailure(inner, depth + 1))) return true;
  return isTransientFailure(e.cause, depth + 1) || isTransientFailure(e.meta?.driverAdapterError, depth + 1);
}

interface DatabaseErrorFields {
  code?: unknown;
  originalCode?: unknown;
  severity?: unknown;
  constraint?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/**
 * The PostgreSQL error under whatever wraps it: pg's own error, or Prisma's (a known request error whose
 * `meta.driverAdapterError.cause` is the adapter's description of pg's error), or an error's `cause`.
 */
function findDatabaseError(error: unknown, depth = 0): DatabaseErrorFields | undefined {
  if (!error || typeof error !== 'object' || depth > 6) return undefined;
  const e = error as DatabaseErrorFields;
  // The adapter keeps pg's code as `originalCode`; pg's own errors carry a `severity` beside the code
  // (Prisma's codes, 'P2002' and the like, look like SQLSTATEs but come without one).
  if (typeof e.originalCode === 'string' || (typeof e.code === 'string' && typeof e.severity === 'string')) return e;
  return findDatabaseError(e.meta?.driverAdapterError, depth + 1) ?? findDatabaseError(e.cause, depth + 1);
}

/** The five-character SQLSTATE PostgreSQL answered with ('23505', '40P01', ...), or undefined. */
export function sqlState(error: unknown): string | undefined {
  const e = findDatabaseError(error);
  const code = e?.originalCode ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The name of the constraint or index that refused a row, when PostgreSQL (or the adapter) named it. */
export function violatedConstraint(error: unknown): string | undefined {
  const constraint = findDatabaseError(error)?.constraint;
  if (typeof constraint === 'string') return constraint;
  const index = (constraint as { index?: unknown } | undefined)?.index;
  return typeof index === 'string' ? index : undefined;
}
