import type { Tier } from '@pixel-atlas/contracts/tiers';
import { avatarDataUrl, claimBody, landSpots } from '@pixel-atlas/test-stack/world';
import type { FaultStack } from './stack.ts';

export { avatarDataUrl, claimBody };

/** Where requests go: only the gateway's URL is read (a fault stack, or the compose test's published port). */
export type Site = { gateway: Pick<FaultStack['gateway'], 'url'> };

let visitorCounter = 0;

/**
 * One browser: its own address (sent as X-Forwarded-For, which the stack's gateway trusts) and its own
 * cookies (pa_visitor and whatever else the site sets), so per-visitor rules see distinct people.
 */
export class Visitor {
  readonly ip: string;
  private readonly cookies = new Map<string, string>();
  constructor() {
    visitorCounter += 1;
    this.ip = `10.${(visitorCounter >> 16) & 255}.${(visitorCounter >> 8) & 255}.${visitorCounter & 255}`;
  }
  headers(): Record<string, string> {
    const out: Record<string, string> = { 'x-forwarded-for': this.ip };
    if (this.cookies.size) out.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return out;
  }
  remember(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  requestId: string | null;
  headers: Headers;
  /** A network failure (connection refused/reset, timeout) rather than an HTTP answer. */
  networkError?: string;
}

/** One request through the gateway, as a browser would send it. Never throws: network failures come back as status 0. */
export async function api<T = any>(
  stack: Site,
  method: string,
  urlPath: string,
  options: { json?: unknown; form?: string; raw?: string; visitor?: Visitor; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<ApiResponse<T>> {
  const visitor = options.visitor ?? new Visitor();
  const headers: Record<string, string> = { ...visitor.headers(), ...options.headers };
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = options.form;
  } else if (options.raw !== undefined) {
    body = options.raw; // exact bytes, with the caller's content type
  }
  try {
    const response = await fetch(`${stack.gateway.url}${urlPath}`, {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    visitor.remember(response.headers.getSetCookie());
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // HTML (test checkout page) or plain text
    }
    return { status: response.status, body: parsed as T, requestId: response.headers.get('x-request-id'), headers: response.headers };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return {
      status: 0,
      body: null as T,
      requestId: null,
      headers: new Headers(),
      networkError: cause ?? String((error as Error).message ?? error),
    };
  }
}

/** Top-left corners of free land squares (the plots world's helper over this stack's map). */
export function spots(
  stack: Pick<FaultStack, 'land'>,
  size: number,
  count: number,
  avoid?: (x: number, y: number, size: number) => boolean,
) {
  return landSpots(stack, size, count, avoid);
}

/** Free land squares right now (not overlapping any plot or hold in the database). */
export async function freeSpots(stack: Pick<FaultStack, 'land' | 'db'>, size: number, count: number) {
  const taken = await stack.db.query<{ x: number; y: number; size: number }>(`SELECT x, y, size FROM plots.footprints`);
  return spots(stack, size, count, (x, y, s) => taken.some((t) => x < t.x + t.size && t.x < x + s && y < t.y + t.size && t.y < y + s));
}

export interface PaidSession {
  sessionId: string;
  tier: Tier;
  x: number;
  y: number;
  visitor: Visitor;
}

/** Checkout through the gateway, then the test checkout's Pay button: a paid session holding (x, y). */
export async function buyAndPay(stack: Site, tier: Tier, spot: { x: number; y: number }, visitor = new Visitor()): Promise<PaidSession> {
  // Preparation, not the fault: on a loaded machine a query between services can time out (504); the buyer
  // tries again (payments releases the hold of a checkout that timed out).
  let created = await api<{ url: string; sessionId: string }>(stack, 'POST', '/api/create-checkout-session', {
    json: { tier, ...spot },
    visitor,
  });
  for (let attempt = 1; attempt < 5 && (created.status === 0 || created.status >= 500); attempt++) {
    await sleep(1000 * attempt);
    created = await api<{ url: string; sessionId: string }>(stack, 'POST', '/api/create-checkout-session', {
      json: { tier, ...spot },
      visitor,
    });
  }
  if (created.status !== 200)
    throw new Error(`checkout ${tier} at ${spot.x},${spot.y}: ${created.status} ${JSON.stringify(created.body) ?? created.networkError}`);
  const payPath = `${new URL(created.body.url, 'http://gateway').pathname}/pay`;
  const paid = await api(stack, 'POST', payPath, { form: '', visitor });
  if (paid.status !== 303) throw new Error(`pay ${created.body.sessionId}: ${paid.status} ${paid.networkError ?? ''}`);
  return { sessionId: created.body.sessionId, tier, ...spot, visitor };
}

/** Buys a session for each place, `parallel` at a time (preparation, not timed). */
export async function buyMany(stack: Site, tier: Tier, places: Array<{ x: number; y: number }>, parallel = 8): Promise<PaidSession[]> {
  return pool(places, parallel, (place) => buyAndPay(stack, tier, place));
}

export async function claimPlot(
  stack: Site,
  session: PaidSession,
  overrides: Record<string, unknown> = {},
): Promise<ApiResponse<{ plot: { id: string; x: number; y: number }; error?: { code: string; message: string } }>> {
  const body = await claimBody(session.sessionId, session.tier, session.x, session.y, {
    display_name: `Buyer ${session.x}-${session.y}`,
    message: 'Pixels all the way down.',
    link: 'https://example.com/buyer',
    ...overrides,
  });
  return api(stack, 'POST', '/api/claim-plot', { json: body, visitor: session.visitor });
}

export async function flagPlot(stack: Site, plotId: string, visitor: Visitor, reason?: string): Promise<ApiResponse> {
  return api(stack, 'POST', '/api/flag-plot', { json: reason === undefined ? { plotId } : { plotId, reason }, visitor });
}

/** Runs `items` through `work` with `concurrency` workers; returns results in item order. */
export async function pool<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        // i < items.length: checked by the loop, and no await between the check and the increment
        out[i] = await work(items[i]!, i);
      }
    }),
  );
  return out;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
