import type { FastifyBaseLogger, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Counter, Registry } from 'prom-client';
import { quoteIdent, type SqlClient } from './database.ts';
import { defineMetrics } from './metrics.ts';

/** The SQL the store needs and the schema holding the service's `rate_limit_hits` table. */
export interface RateLimitSql {
  client: SqlClient;
  schema: string;
}

export interface PgRateLimitStoreOptions {
  /**
   * Asked on every count, not at construction: the kit registers @fastify/rate-limit before the
   * database plugin exists, so the client is looked up when the first limited request arrives.
   */
  sql: () => RateLimitSql | undefined;
  log: FastifyBaseLogger;
  metrics: Registry;
  /** A count slower than this lets the request through (see `incr`). */
  timeoutMs?: number;
  /** At most one sweep of expired rows per interval, per replica. */
  sweepIntervalMs?: number;
}

/** The slice of @fastify/rate-limit's merged route options the store reads. */
interface RouteLimitParams {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string | string[]; url?: string };
}

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface HitRow {
  count: number;
  ttl_ms: number;
}

const SWEEP_BATCH = 5000;
/**
 * How long requests already answered (first half of the limit) may wait to be written: a busy client's counts go to
 * PostgreSQL once per this interval instead of once per round trip. Other replicas see them this much later, which a
 * per-minute limit does not notice; a request that must wait for the exact total ends the wait at once.
 */
const LINGER_MS = 20;
/**
 * How long a key whose writes are all done keeps its last known total and window. Its next request still waits for
 * its own count; those arriving while that count is in flight can then be answered at once. Without it, clients
 * that each wait for an answer before sending again fell into lock step (every count in flight had all of them
 * waiting, none arrived meanwhile, the key was forgotten, the next batch knew nothing and made all wait again): one
 * statement per round trip instead of one per linger interval, 33 to 85 statements in 300 ms instead of 15.
 */
const IDLE_KEEP_MS = 100;
const LOG_EVERY_MS = 10_000;

/** State shared by a store and its per-route children (one per app). */
class StoreCore {
  private readonly failures: Counter;
  private lastSweepAt = Date.now();
  private lastFailureLogAt = 0;
  readonly timeoutMs: number;
  private readonly sweepIntervalMs: number;

  constructor(private readonly options: PgRateLimitStoreOptions) {
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    this.failures = defineMetrics(options.metrics, (m) =>
      m.counter({
        name: 'rate_limit_store_failures_total',
        help: 'Rate-limit counts that could not reach PostgreSQL and let the request through, by reason',
        labelNames: ['reason'],
      }),
    );
  }

  sql(): RateLimitSql | undefined {
    return this.options.sql();
  }

  failed(reason: 'unavailable' | 'timeout' | 'error', error: unknown): void {
    this.failures.inc({ reason });
    // One line per interval, not one per request: an outage would otherwise flood the logs.
    const now = Date.now();
    if (now - this.lastFailureLogAt < LOG_EVERY_MS) return;
    this.lastFailureLogAt = now;
    this.options.log.warn({ err: error, reason }, 'rate-limit store unreachable: letting requests through uncounted');
  }

  callbackFailed(error: unknown): void {
    this.options.log.error({ err: error }, 'a request failed in its rate-limit callback; the rest of its batch goes on');
  }

  /** Deletes windows that ended, now and then, off the request path. */
  maybeSweep(sql: RateLimitSql): void {
    const now = Date.now();
    if (now - this.lastSweepAt < this.sweepIntervalMs) return;
    this.lastSweepAt = now;
    const table = `${quoteIdent(sql.schema)}."rate_limit_hits"`;
    // SKIP LOCKED: rows a request is counting right now are left for the next sweep instead of waited on.
    sql.client
      .$executeRawUnsafe(
        `DELETE FROM ${table} WHERE "key" IN (SELECT "key" FROM ${table} WHERE "window_ends_at" <= now() LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)`,
      )
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'rate-limit sweep failed; will retry'));
  }
}

function routePrefix(params: RouteLimitParams): string {
  const info = params.routeInfo ?? {};
  const method = Array.isArray(info.method) ? info.method.join(',') : (info.method ?? '');
  return info.url ? `${method} ${info.url}|` : '';
}

/**
 * One key's counting on this replica: the requests to add in the next upsert (a null callback was already
 * answered from the replica's own count and only has to be added), whether an upsert is in flight, and the
 * total and window end PostgreSQL returned last.
 */
interface KeyBatch {
  waiting: Array<IncrCallback | null>;
  inFlight: number;
  /** Set while answered-at-once requests wait to be added to the next upsert (see `LINGER_MS`). */
  linger: NodeJS.Timeout | undefined;
  /** Set while nothing is waiting or in flight: forgets the key when it runs out (see `IDLE_KEEP_MS`). */
  idle: NodeJS.Timeout | undefined;
  knownTotal: number;
  knownWindowEndsAt: number;
}

/**
 * A @fastify/rate-limit store in the service's own PostgreSQL schema, so every replica counts against the
 * same limit. A count is one statement (one round trip): an upsert that starts a new window when the last
 * one ended and otherwise adds to it, with the window measured on the database's clock.
 *
 * Counts of one key are group-committed per replica: while a key's upsert is in flight, further requests
 * with that key are added together in the next upsert of `+n`, each taking its own place in the returned
 * total. A busy client (one address behind the gateway, or a benchmark) would otherwise queue one upsert per
 * request behind that key's row lock; batched, the row is locked once per round trip however many
 * requests arrive meanwhile.
 *
 * While an upsert is in flight, a request whose place by this replica's own count (the last total from
 * PostgreSQL plus what it has added since) is within the first half of the limit is answered at once and
 * only added to the next upsert: a client far from its limit never waits on the database behind its own
 * earlier requests. Past half the limit every request waits for PostgreSQL's total, so the (limit+1)th
 * request is refused exactly, whichever replicas the requests went to. A request with no batch in flight
 * always waits for its own count, so a client sending one request at a time is always counted exactly. When only
 * answered requests are left to write, the next upsert waits up to `LINGER_MS` for more (and answered ones keep
 * coming meanwhile), so a busy client costs one statement per interval rather than one per round trip.
 *
 * When PostgreSQL cannot answer (down, or slower than `timeoutMs`) the request is let through, counted
 * in `rate_limit_store_failures_total` and logged: every limited route needs the same database for its
 * own work and then answers 503 by itself, while refusing here would turn an outage into 429s that tell
 * clients to wait out a window, and on the gateway would take down every API route, cached reads included.
 */
export class PgRateLimitStore {
  private readonly batches = new Map<string, KeyBatch>();

  constructor(
    private readonly core: StoreCore,
    private readonly prefix: string,
    private readonly continueExceeding: boolean,
  ) {}

  incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void {
    const fullKey = this.prefix + key;
    let batch = this.batches.get(fullKey);
    if (!batch) {
      batch = { waiting: [], inFlight: 0, linger: undefined, idle: undefined, knownTotal: 0, knownWindowEndsAt: 0 };
      this.batches.set(fullKey, batch);
    }
    if (batch.idle) {
      clearTimeout(batch.idle);
      batch.idle = undefined;
    }
    if ((batch.inFlight > 0 || batch.linger) && batch.knownWindowEndsAt > Date.now()) {
      const place = batch.knownTotal + batch.inFlight + batch.waiting.length + 1;
      if (place <= max / 2) {
        batch.waiting.push(null);
        callback(null, { current: place, ttl: batch.knownWindowEndsAt - Date.now() });
        return;
      }
    }
    batch.waiting.push(callback);
    if (batch.linger) {
      clearTimeout(batch.linger);
      batch.linger = undefined;
    }
    if (batch.inFlight === 0) this.flush(fullKey, batch, timeWindow, max);
  }

  /** Counts everything waiting on `fullKey` in one upsert, then starts the next batch if more arrived meanwhile. */
  private flush(fullKey: string, batch: KeyBatch, timeWindow: number, max: number): void {
    const callbacks = batch.waiting;
    batch.waiting = [];
    batch.inFlight = callbacks.length;
    const done = () => {
      batch.inFlight = 0;
      if (batch.waiting.length === 0) {
        // Idle keys are forgotten soon, so they hold no memory; the next request waits for its own count either way.
        batch.idle = setTimeout(() => {
          if (this.batches.get(fullKey) === batch && batch.idle) this.batches.delete(fullKey);
        }, IDLE_KEEP_MS);
        batch.idle.unref();
      } else if (batch.waiting.every((waiting) => waiting === null) && batch.knownWindowEndsAt > Date.now()) {
        batch.linger = setTimeout(() => {
          batch.linger = undefined;
          this.flush(fullKey, batch, timeWindow, max);
        }, LINGER_MS);
        batch.linger.unref();
      } else {
        this.flush(fullKey, batch, timeWindow, max);
      }
    };
    const letThrough = (reason: 'unavailable' | 'timeout' | 'error', error: unknown) => {
      this.core.failed(reason, error);
      batch.knownWindowEndsAt = 0; // nothing known: the next requests wait for a real count
      for (const callback of callbacks) this.answer(callback, { current: 0, ttl: timeWindow });
    };

    const sql = this.core.sql();
    if (!sql) {
      letThrough('unavailable', new Error('no database client registered for rate limits'));
      done();
      return;
    }
    const table = `${quoteIdent(sql.schema)}."rate_limit_hits"`;
    const n = callbacks.length;
    // In ON CONFLICT ... DO UPDATE every column reference reads the row as it was before this update, and
    // the row lock serialises concurrent counts of one key across replicas: no count is lost, none seen twice.
    const count = sql.client.$queryRawUnsafe<HitRow[]>(
      `INSERT INTO ${table} AS h ("key", "count", "window_ends_at")
       VALUES ($1, $5::int, now() + make_interval(secs => $2::float8 / 1000))
       ON CONFLICT ("key") DO UPDATE SET
         "count" = CASE WHEN h."window_ends_at" <= now() THEN $5::int ELSE h."count" + $5::int END,
         "window_ends_at" = CASE
           WHEN h."window_ends_at" <= now() OR ($3::boolean AND h."count" + $5::int > $4::bigint) THEN excluded."window_ends_at"
           ELSE h."window_ends_at" END
       RETURNING "count", GREATEST(0, ceil(extract(epoch FROM "window_ends_at" - now()) * 1000))::int AS ttl_ms`,
      fullKey,
      timeWindow,
      this.continueExceeding,
      max,
      n,
    );
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      letThrough('timeout', new Error(`rate-limit count took longer than ${this.core.timeoutMs} ms`));
      done();
    }, this.core.timeoutMs);
    count.then(
      (rows) => {
        clearTimeout(timer);
        if (settled) return;
        const [row] = rows;
        if (!row) {
          letThrough('error', new Error('the rate-limit upsert returned no row'));
          done();
          return;
        }
        const total = Number(row.count);
        const ttl = Number(row.ttl_ms);
        batch.knownTotal = total;
        batch.knownWindowEndsAt = Date.now() + ttl;
        // The batch's requests hold the last n places of the total, in arrival order.
        callbacks.forEach((callback, i) => this.answer(callback, { current: total - n + i + 1, ttl }));
        this.core.maybeSweep(sql);
        done();
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        letThrough('error', error);
        done();
      },
    );
  }

  /**
   * An inline hook's callback goes on with its request's whole lifecycle (see `inlineRateLimitHook`): whatever that
   * throws must not keep the rest of the batch from their answers, nor the batch from its next upsert.
   */
  private answer(callback: IncrCallback | null, result: { current: number; ttl: number }): void {
    try {
      callback?.(null, result);
    } catch (error) {
      this.core.callbackFailed(error);
    }
  }

  /**
   * Each route (or `createRateLimit` call) counts separately, as with the plugin's own stores. The plugin's
   * types call the argument RouteOptions; at run time it is the merged limit options with `routeInfo`.
   */
  child(routeOptions: object): PgRateLimitStore {
    const params = routeOptions as RouteLimitParams;
    if (params.exponentialBackoff) throw new Error('the PostgreSQL rate-limit store does not implement exponentialBackoff');
    return new PgRateLimitStore(this.core, routePrefix(params), params.continueExceeding ?? false);
  }
}

/**
 * The constructor @fastify/rate-limit's `store` option takes (it calls `new Store(globalOptions)`), bound to
 * this app's lazy SQL lookup, logger and metrics.
 */
export function pgRateLimitStore(options: PgRateLimitStoreOptions) {
  const core = new StoreCore(options);
  return class extends PgRateLimitStore {
    constructor(globalOptions: object) {
      const params = globalOptions as RouteLimitParams;
      super(core, routePrefix(params), params.continueExceeding ?? false);
      if (params.exponentialBackoff) throw new Error('the PostgreSQL rate-limit store does not implement exponentialBackoff');
    }
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's per-client limit, counted by a synchronous hook of the kit (`inlineRateLimitHook`) instead of
     * @fastify/rate-limit's: the same store, keys, headers and refusal, without the plugin's promises on every request.
     * Use it instead of `rateLimit`, on routes where that per-request cost shows.
     */
    inlineRateLimit?: InlineRateLimit;
  }
}

export interface InlineRateLimit {
  max: number;
  timeWindow: number;
  /**
   * Where requests are counted. 'database' (the default): in the service's `rate_limit_hits`, across every replica.
   * 'replica': in this process's memory, for answers it serves from memory (the gateway's pages and share cards),
   * where a statement per count cost more than the answer (15 % of the gateway's CPU under a crowd) and what the limit
   * guards is this replica's own CPU. A client spread over N replicas gets N times the limit.
   */
  countedIn?: 'database' | 'replica';
}

/** Clients whose window a replica remembers; past it the least recently seen start a new window. */
const REPLICA_COUNTED_KEYS = 100_000;

/** What a refusal is built from (the slice of @fastify/rate-limit's context the kit's error builder reads). */
export interface RateLimitRefusal {
  statusCode: number;
  max: number;
  ttl: number;
}

/**
 * @fastify/rate-limit's route hook over this store, synchronous: the plugin's hook is an async function awaiting the
 * key, the count and its own inner function (a promise and several microtasks per request, with the store answering a
 * busy client at once anyway). This one calls the store and goes on in its callback: at once when the store answers at
 * once, after the upsert otherwise. The rest is the plugin's, unchanged: the count, the `x-ratelimit-limit`,
 * `x-ratelimit-remaining` and `x-ratelimit-reset` headers, and past the limit `retry-after` and the refusal the
 * app builds (the kit's is 429 `RATE_LIMITED`), handed to Fastify as the hook's error.
 */
type RefusalBuilder = (request: FastifyRequest, refusal: RateLimitRefusal) => Error;

/** The plugin's headers for a counted request, and past the limit its `retry-after` and the app's refusal. */
function answerCount(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  count: { current: number; ttl: number; max: number },
  errorResponseBuilder: RefusalBuilder,
): void {
  const { current, ttl, max } = count;
  const ttlInSeconds = Math.ceil(ttl / 1000);
  reply
    .header('x-ratelimit-limit', max)
    .header('x-ratelimit-remaining', Math.max(0, max - current))
    .header('x-ratelimit-reset', ttlInSeconds);
  if (current <= max) {
    done();
    return;
  }
  reply.header('retry-after', ttlInSeconds);
  done(errorResponseBuilder(request, { statusCode: 429, max, ttl }));
}

/**
 * @fastify/rate-limit's route hook over this store, synchronous: the plugin's hook is an async function awaiting the
 * key, the count and its own inner function (a promise and several microtasks per request, with the store answering a
 * busy client at once anyway). This one calls the store and goes on in its callback: at once when the store answers at
 * once, after the upsert otherwise. The rest is the plugin's, unchanged: the count, the `x-ratelimit-limit`,
 * `x-ratelimit-remaining` and `x-ratelimit-reset` headers, and past the limit `retry-after` and the refusal the
 * app builds (the kit's is 429 `RATE_LIMITED`), handed to Fastify as the hook's error.
 */
export function inlineRateLimitHook(
  store: PgRateLimitStore,
  limit: InlineRateLimit,
  options: { keyGenerator: (request: FastifyRequest) => string; errorResponseBuilder: RefusalBuilder },
): onRequestHookHandler {
  const { max, timeWindow } = limit;
  return (request, reply, done) => {
    store.incr(
      options.keyGenerator(request),
      (error, result) => {
        if (error) {
          done(error);
          return;
        }
        answerCount(request, reply, done, { current: result?.current ?? 0, ttl: result?.ttl ?? 0, max }, options.errorResponseBuilder);
      },
      timeWindow,
      max,
    );
  };
}

/**
 * The same hook counted in this process's memory (`countedIn: 'replica'`): a fixed window per client, the same headers
 * and refusal, no statement and no promise per request.
 */
export function replicaRateLimitHook(
  limit: InlineRateLimit,
  options: { keyGenerator: (request: FastifyRequest) => string; errorResponseBuilder: RefusalBuilder },
): onRequestHookHandler {
  const { max, timeWindow } = limit;
  const windows = new LRUCache<string, { count: number; resetAt: number }>({ max: REPLICA_COUNTED_KEYS });
  return (request, reply, done) => {
    const key = options.keyGenerator(request);
    const at = Date.now();
    let window = windows.get(key);
    if (!window || window.resetAt <= at) {
      window = { count: 0, resetAt: at + timeWindow };
      windows.set(key, window);
    }
    window.count += 1;
    answerCount(request, reply, done, { current: window.count, ttl: window.resetAt - at, max }, options.errorResponseBuilder);
  };
}
