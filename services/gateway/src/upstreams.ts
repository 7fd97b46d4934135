import { lookup } from 'node:dns/promises';
import http from 'node:http';
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
  /** More request headers (Accept-Encoding, If-None-Match). */
  headers?: Record<string, string>;
  /** The id of the request this call serves, for the logs of both sides. */
  requestId?: string;
  /** The visitor's address, for a service that counts or logs per client. */
  clientIp?: string;
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

/**
 * Throws when the service has no replica configured, when it does not answer in time, or the connection fails. The
 * answer's body is the service's bytes as sent: a body the service compressed (the caller asked with Accept-Encoding)
 * stays compressed, so the gateway can keep it and answer visitors with it.
 */
export type CallService = (service: ServiceName, call: ServiceCall) => Promise<{ response: Response; replica: string }>;

/** Statuses whose Response may carry no body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The gateway's one way to call a service besides the proxy (the public documents it keeps, a page's data, a share
 * card's plot, a badge, the API reference, a batch of views): the next ready replica, the internal token, the request
 * id, kept-alive connections that close when idle (IDLE_UPSTREAM_SOCKET_MS), and one time limit for the whole answer
 * from configuration (SERVICE_CALL_TIMEOUT_MS). node:http rather than fetch: fetch decodes a compressed body and the
 * gateway wants the bytes the service compressed once.
 */
export function serviceCaller(
  pools: ReadonlyMap<ServiceName, UpstreamPool>,
  options: { internalToken: string; timeoutMs: number },
): CallService & { close: () => void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16, timeout: IDLE_UPSTREAM_SOCKET_MS });
  const call: CallService = async (service, call) => {
    const pool = pools.get(service);
    if (!pool) throw new Error(`no ${service} replica is configured`);
    const replica = pool.pick(call.avoid);
    const headers: Record<string, string> = { ...call.headers, [INTERNAL_HEADERS.token]: options.internalToken };
    if (call.requestId) headers[INTERNAL_HEADERS.requestId] = call.requestId;
    if (call.clientIp) headers[INTERNAL_HEADERS.clientIp] = call.clientIp;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await requestWithDeadline(new URL(call.path, replica), {
        agent,
        method: call.method ?? 'GET',
        headers,
        body: call.body,
        timeoutMs: options.timeoutMs,
      });
      return { response, replica };
    } catch (error) {
      throw new ServiceCallFailed(service, replica, error);
    }
  };
  return Object.assign(call, { close: () => agent.destroy() });
}

function requestWithDeadline(
  url: URL,
  options: { agent: http.Agent; method: string; headers: Record<string, string>; body?: string; timeoutMs: number },
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { agent: options.agent, method: options.method, headers: options.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () => {
        clearTimeout(deadline);
        const status = answer.statusCode ?? 502;
        const headers = new Headers();
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        resolve(new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), { status, headers }));
      });
    });
    // One limit for the whole answer, body included, as AbortSignal.timeout gave fetch.
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.end(options.body);
  });
}
