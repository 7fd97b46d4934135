/** Which service owns which public API paths; the gateway proxies each prefix to that service. */
export const ROUTE_TABLE = {
  contact: ['/api/contact'],
  map: ['/api/map-layout', '/api/admin/generate-map', '/api/admin/map-layout'],
  plots: ['/api/plots', '/api/claim-plot', '/api/position-available', '/api/flag-plot', '/api/users'],
  payments: ['/api/create-checkout-session', '/api/verify-session', '/api/payments', '/api/test-checkout'],
  moderation: ['/api/admin/flagged-plots', '/api/admin/approve-plot', '/api/admin/reject-plot', '/api/admin/moderation'],
} as const;
export type ServiceName = keyof typeof ROUTE_TABLE;

const HEALTH_INTERVAL_MS = 2000;
const HEALTH_TIMEOUT_MS = 1500;

/**
 * The replicas of one service. Requests go round-robin to replicas whose /readyz answered last time;
 * when none did, every replica is tried anyway so the caller gets the real error rather than a guess.
 */
export class UpstreamPool {
  private next = 0;
  private readonly healthy: Map<string, boolean>;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly service: ServiceName,
    readonly bases: string[],
  ) {
    this.healthy = new Map(bases.map((b) => [b, true]));
  }

  pick(): string {
    const candidates = this.bases.filter((b) => this.healthy.get(b));
    const from = candidates.length ? candidates : this.bases;
    const base = from[this.next % from.length];
    this.next = (this.next + 1) % 1_000_000;
    return base;
  }

  isHealthy(base: string): boolean {
    return this.healthy.get(base) ?? false;
  }

  markUnhealthy(base: string): void {
    this.healthy.set(base, false);
  }

  async checkAll(): Promise<void> {
    await Promise.all(
      this.bases.map(async (base) => {
        try {
          const response = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
          this.healthy.set(base, response.ok);
        } catch {
          this.healthy.set(base, false);
        }
      }),
    );
  }

  startHealthChecks(): void {
    if (this.timer || this.bases.length < 2) return;
    this.timer = setInterval(() => void this.checkAll(), HEALTH_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
