import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { BackendName } from '@pixel-atlas/contracts/services';
import { PollingWorker } from '@pixel-atlas/service-kit/polling-worker';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Which service owns which public API paths; the gateway proxies each prefix to that service. One line for each backend
 * of @pixel-atlas/contracts/services ([] for one with no public path).
 */
export const ROUTE_TABLE = {
  contact: ['/api/contact'],
  map: ['/api/map-layout', '/api/admin/generate-map', '/api/admin/map-layout'],
  plots: [
    '/api/plots',
    '/api/claim-plot',
    '/api/position-available',
    '/api/reserved-footprints',
    '/api/flag-plot',
    '/api/users',
    '/api/regions',
    '/api/admin/link-health',
    '/api/manage',
    '/api/plot-stats',
    '/api/admin/top-plots',
    '/api/admin/plots',
  ],
  payments: ['/api/create-checkout-session', '/api/verify-session', '/api/payments', '/api/test-checkout', '/api/prices'],
  moderation: ['/api/admin/flagged-plots', '/api/admin/approve-plot', '/api/admin/reject-plot', '/api/admin/moderation'],
} as const satisfies Record<BackendName, readonly string[]>;
/** A service behind the gateway. */
export type ServiceName = BackendName;

/**
 * How long a kept-alive connection to a service may sit unused before the gateway closes it. Without an agent timeout
 * Node ignores the service's `Keep-Alive: timeout=5` hint, keeps the socket, and a request written as the service closes
 * it fails with 'socket hang up': a buyer's checkout answered 502. Every
 * node:http agent the gateway keeps for services uses it. With one, the smaller of it and the hint less 1 s
 * applies; this is below the services' 5 s default (HTTP_KEEP_ALIVE_TIMEOUT_MS) by more than a busy event loop's lag.
 */
export const IDLE_UPSTREAM_SOCKET_MS = 2_000;

const CHECK_INTERVAL_MS = 2000;
const CHECK_TIMEOUT_MS = 1500;

type Resolve = (hostname: string) => Promise<string[]>;
const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address);

function withHost(base: string, address: string): string {
  const url = new URL(base);
  url.hostname = net.isIPv6(address) ? `[${address}]` : address;
  return url.origin;
}

/**
 * The replicas of one service. Configured URLs may name several replicas, and a name (a compose
 * service) is re-resolved so every replica `docker compose --scale` starts gets traffic. Requests go
 * round-robin to replicas whose /readyz answered last time; when none did, every replica is tried
 * anyway so the caller gets the real error rather than a guess.
 */
export class UpstreamPool {
  private next = 0;
  private replicas: string[];
  private readonly healthy = new Map<string, boolean>();
  private healthChecks: PollingWorker | null = null;

  constructor(
    readonly service: ServiceName,
    readonly bases: string[],
    private readonly resolve: Resolve = resolveAll,
  ) {
    this.replicas = [...bases];
  }

  /** Every replica currently known (after name resolution). */
  get members(): string[] {
    return [...this.replicas];
  }

  /** The next replica to use, skipping `avoid` (one that just failed) when another exists. */
  pick(avoid?: string): string {
    const healthy = this.replicas.filter((r) => this.healthy.get(r) !== false && r !== avoid);
    const fallback = this.replicas.filter((r) => r !== avoid);
    const from = healthy.length ? healthy : fallback.length ? fallback : this.replicas;
    const replica = from[this.next % from.length];
    // The env names at least one URL per service and resolution keeps a name that resolves to nothing.
    if (replica === undefined) throw new Error(`no replica of ${this.service} to pick`);
    this.next = (this.next + 1) % 1_000_000;
    return replica;
  }

  isHealthy(replica: string): boolean {
    return this.healthy.get(replica) !== false;
  }

  /** Each replica's answer to its last health check; replicas not checked yet are left out. */
  lastChecks(): Array<{ replica: string; ready: boolean }> {
    return this.replicas.filter((r) => this.healthy.has(r)).map((replica) => ({ replica, ready: this.healthy.get(replica)! }));
  }

  markUnhealthy(replica: string): void {
    this.healthy.set(replica, false);
  }

  /** Re-resolves names (IP literals stay as they are). */
  async refreshMembers(): Promise<void> {
    const expanded = await Promise.all(
      this.bases.map(async (base) => {
        const { hostname } = new URL(base);
        if (net.isIP(hostname.replace(/^\[|\]$/g, '')) || hostname === 'localhost') return [base];
        try {
          const addresses = await this.resolve(hostname);
          return addresses.length ? addresses.map((a) => withHost(base, a)) : [base];
        } catch {
          return [base];
        }
      }),
    );
    this.replicas = [...new Set(expanded.flat())];
  }

  async checkAll(): Promise<void> {
    await this.refreshMembers();
    await Promise.all(
      this.replicas.map(async (replica) => {
        try {
          const response = await fetch(`${replica}/readyz`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
          this.healthy.set(replica, response.ok);
        } catch {
          this.healthy.set(replica, false);
        }
      }),
    );
  }

  startHealthChecks(log: FastifyBaseLogger): void {
    this.healthChecks ??= new PollingWorker({
      name: `${this.service} health checks`,
      pollIntervalMs: CHECK_INTERVAL_MS,
      log,
      tick: async () => {
        await this.checkAll();
        return 0;
      },
    });
    this.healthChecks.start();
  }

  async stop(): Promise<void> {
    await this.healthChecks?.stop();
    this.healthChecks = null;
  }
}

/** One call the gateway makes to a service itself (not a proxied request). */
export interface ServiceCall {
  /** Path and query on the service. */
  path: string;
  method?: 'GET' | 'POST';
  /** A JSON body. */
  body?: string;
  /** The id of the request this call serves, for the logs of both sides. */
  requestId?: string;
  /** A replica that just failed: another is used when there is one. */
  avoid?: string;
}

/** A call that got no answer (refused, dropped, out of time), naming the replica, so the caller can avoid it next time. */
export class ServiceCallFailed extends Error {
  constructor(
    readonly service: ServiceName,
    readonly replica: string,
    cause: unknown,
  ) {
    super(`${service} (${replica}) did not answer: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Throws when the service has no replica configured, when it does not answer in time, or the connection fails. */
export type CallService = (service: ServiceName, call: ServiceCall) => Promise<{ response: Response; replica: string }>;

/**
 * The gateway's one way to call a service besides the proxy (a page's data, a share card's plot, a badge, the API
 * reference, a batch of views): the next ready replica, the internal token, the request id, and one time limit from
 * configuration (SERVICE_CALL_TIMEOUT_MS).
 */
export function serviceCaller(
  pools: ReadonlyMap<ServiceName, UpstreamPool>,
  options: { internalToken: string; timeoutMs: number },
): CallService {
  return async (service, call) => {
    const pool = pools.get(service);
    if (!pool) throw new Error(`no ${service} replica is configured`);
    const replica = pool.pick(call.avoid);
    const headers: Record<string, string> = { [INTERNAL_HEADERS.token]: options.internalToken };
    if (call.requestId) headers[INTERNAL_HEADERS.requestId] = call.requestId;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${replica}${call.path}`, {
        method: call.method ?? 'GET',
        headers,
        body: call.body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      return { response, replica };
    } catch (error) {
      throw new ServiceCallFailed(service, replica, error);
    }
  };
}
