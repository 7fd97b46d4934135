/**
 * Test and benchmark harness: the REAL map, plots, payments and moderation apps in one process, on one
 * throwaway database and stream, the way they run behind the gateway (no mocks of our own services). Payments
 * uses the built-in test checkout, or the real Stripe SDK against a local fake of Stripe's API.
 */
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { TIER_SIZE, type Tier } from '@pixel-atlas/contracts/tiers';
import { buildApp as buildMapApp } from '@pixel-atlas/map-service/app';
import { loadEnv as loadMapEnv } from '@pixel-atlas/map-service/env';
import { buildApp as buildModerationApp } from '@pixel-atlas/moderation-service/app';
import { loadEnv as loadModerationEnv } from '@pixel-atlas/moderation-service/env';
import { buildApp as buildPaymentsApp } from '@pixel-atlas/payments-service/app';
import { loadEnv as loadPaymentsEnv } from '@pixel-atlas/payments-service/env';
import { buildApp as buildPlotsApp } from '@pixel-atlas/plots-service/app';
import { loadEnv as loadPlotsEnv } from '@pixel-atlas/plots-service/env';
import type { TestNatsServer } from '@pixel-atlas/service-kit/test-nats-server';
import {
  TEST_INTERNAL_TOKEN,
  createTestDatabase,
  createTestStream,
  readStream,
  testServiceEnv,
  type TestDatabase,
  type TestStream,
} from '@pixel-atlas/service-kit/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { fakeStripeEnv, startFakeStripe, type FakeStripe } from './fake-stripe.ts';

type ServiceName = 'map' | 'plots' | 'payments' | 'moderation';
/** Each service's app as its buildApp returns it: `db` is that service's own generated client. */
interface ServiceApps {
  map: Awaited<ReturnType<typeof buildMapApp>>;
  plots: Awaited<ReturnType<typeof buildPlotsApp>>;
  payments: Awaited<ReturnType<typeof buildPaymentsApp>>;
  moderation: Awaited<ReturnType<typeof buildModerationApp>>;
}

export interface WorldOptions {
  /** Real Stripe SDK against a local fake instead of the built-in test checkout. */
  stripe?: boolean;
  plotsEnv?: Record<string, string>;
  paymentsEnv?: Record<string, string>;
  /** false: no map service at all (claims must say the map is not available). */
  map?: boolean;
  /** false: no moderation service (claims fall back to the local floor screen). */
  moderation?: boolean;
  moderationEnv?: Record<string, string>;
  /** Start listening on a port (benchmarks); tests use inject(). */
  listen?: boolean;
  /** The test's own nats-server when it stops and restarts it (otherwise the world starts one of its own). */
  nats?: TestNatsServer;
}

export interface World {
  db: TestDatabase;
  stream: TestStream;
  natsUrl: string;
  map: ServiceApps['map'] | null;
  plots: ServiceApps['plots'];
  payments: ServiceApps['payments'];
  /** The moderation app (content screen, review queue, approve/reject), unless started with moderation: false or stopped. */
  moderation: ServiceApps['moderation'] | null;
  fakeStripe: FakeStripe | null;
  /** Land tiles of the generated map, as "x,y". */
  land: Set<string>;
  /** Closes the service and starts it again (a stopped moderation is started). */
  restart(service: ServiceName): Promise<void>;
  /** Closes the service until `restart` (moderation only: the others are always there). */
  stop(service: 'moderation'): Promise<void>;
  /** Another replica of a service on the same database and stream (closed with the world). */
  spawn<S extends ServiceName>(service: S): Promise<ServiceApps[S]>;
  close(): Promise<void>;
}

let ipCounter = 0;
/** Headers of a request that came through the gateway, from its own visitor address. */
export function viaGateway(ip?: string): Record<string, string> {
  ipCounter += 1;
  return { 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-client-ip': ip ?? `203.0.113.${(ipCounter % 250) + 1}` };
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const db = await createTestDatabase();
  const stream = await createTestStream(options.nats);
  const natsUrl = stream.natsUrl;
  const base = testServiceEnv(db, stream);
  const fakeStripe = options.stripe ? await startFakeStripe() : null;
  const paymentsEnv = {
    ...base,
    CHECKOUT_RATE_LIMIT_MAX: '100000',
    EXPIRY_SWEEP_INTERVAL_MS: '0',
    ...(fakeStripe ? fakeStripeEnv(fakeStripe) : {}),
    ...options.paymentsEnv,
  };
  // The link checker would probe the test plots' example.com links; its own tests turn it on.
  const plotsEnv = { ...base, LINK_CHECK_INTERVAL_MS: '0', ...options.plotsEnv };
  const mapEnv = { ...base, MAP_AUTOGENERATE: 'true' };
  const moderationEnv = { ...base, NOTIFY_POLL_INTERVAL_MS: '200', ...options.moderationEnv };

  const start = async <A extends FastifyInstance>(app: A): Promise<A> => {
    if (options.listen) await app.listen({ host: '127.0.0.1', port: 0 });
    else await app.ready();
    return app;
  };
  const builders: { [S in ServiceName]: () => Promise<ServiceApps[S]> } = {
    map: async () => start(await buildMapApp(loadMapEnv(mapEnv))),
    plots: async () => start(await buildPlotsApp(loadPlotsEnv(plotsEnv))),
    payments: async () => start(await buildPaymentsApp(loadPaymentsEnv(paymentsEnv))),
    moderation: async () => start(await buildModerationApp(loadModerationEnv(moderationEnv))),
  };

  const extra: FastifyInstance[] = [];
  const world: World = {
    db,
    stream,
    natsUrl,
    map: options.map === false ? null : await builders.map(),
    plots: await builders.plots(),
    payments: await builders.payments(),
    moderation: options.moderation === false ? null : await builders.moderation(),
    fakeStripe,
    land: new Set(),
    async restart(service) {
      await world[service]?.close();
      if (service === 'map') world.map = await builders.map();
      else if (service === 'plots') world.plots = await builders.plots();
      else if (service === 'payments') world.payments = await builders.payments();
      else world.moderation = await builders.moderation();
    },
    async stop(service) {
      await world[service]?.close();
      world[service] = null;
    },
    async spawn(service) {
      const app = await builders[service]();
      extra.push(app);
      return app;
    },
    async close() {
      await Promise.allSettled([
        world.plots.close(),
        world.payments.close(),
        world.map?.close(),
        world.moderation?.close(),
        ...extra.map((a) => a.close()),
      ]);
      await fakeStripe?.close();
      await stream.remove();
      await db.drop();
    },
  };
  if (world.map) {
    const rows = await db.query<{ x: number; y: number }>('SELECT "x", "y" FROM "map"."map_tiles" WHERE "is_land"');
    world.land = new Set(rows.map((r) => `${r.x},${r.y}`));
  }
  return world;
}

/** Whether every tile of the square is land. */
export function isLandFootprint(world: Pick<World, 'land'>, x: number, y: number, size: number): boolean {
  for (let dx = 0; dx < size; dx++) for (let dy = 0; dy < size; dy++) if (!world.land.has(`${x + dx},${y + dy}`)) return false;
  return true;
}

/** Top-left corners of land squares of the given size, scanning row by row, none overlapping each other. */
export function landSpots(
  world: Pick<World, 'land'>,
  size: number,
  count: number,
  avoid: (x: number, y: number, size: number) => boolean = () => false,
) {
  const taken = new Set<string>();
  const out: Array<{ x: number; y: number }> = [];
  for (let y = 0; y + size <= 90 && out.length < count; y += size) {
    for (let x = 0; x + size <= 90 && out.length < count; x += size) {
      if (!isLandFootprint(world, x, y, size) || avoid(x, y, size) || taken.has(`${x},${y}`)) continue;
      out.push({ x, y });
      taken.add(`${x},${y}`);
    }
  }
  if (out.length < count) throw new Error(`only ${out.length} free ${size}×${size} land spots, wanted ${count}`);
  return out;
}

/** A water tile (the map keeps an ocean border, so (0,0) is water). */
export function waterTile(world: Pick<World, 'land'>): { x: number; y: number } {
  for (let y = 0; y < 90; y++) for (let x = 0; x < 90; x++) if (!world.land.has(`${x},${y}`)) return { x, y };
  throw new Error('no water');
}

let avatar: string | null = null;
/** A small valid PNG avatar as a data URL. */
export async function avatarDataUrl(): Promise<string> {
  avatar ??= `data:image/png;base64,${(
    await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 40, g: 120, b: 220, alpha: 1 } } })
      .png()
      .toBuffer()
  ).toString('base64')}`;
  return avatar;
}

let photoAvatar: string | undefined;
/**
 * An avatar as the web's crop editor sends it: a 100×100 PNG data URL of photo-like content (about 27 KB), not a
 * flat colour that costs next to nothing to decode and encode.
 */
export async function photoAvatarDataUrl(): Promise<string> {
  if (!photoAvatar) {
    const noise = await sharp({
      create: {
        width: 100,
        height: 100,
        channels: 4,
        background: { r: 200, g: 120, b: 60, alpha: 1 },
        noise: { type: 'gaussian', mean: 128, sigma: 24 },
      },
    })
      .png()
      .toBuffer();
    photoAvatar = `data:image/png;base64,${(await sharp(noise).blur(0.8).png().toBuffer()).toString('base64')}`;
  }
  return photoAvatar;
}

export async function startCheckout(
  world: World,
  body: { tier: Tier; x: number; y: number },
  ip?: string,
): Promise<LightMyRequestResponse> {
  return world.payments.inject({ method: 'POST', url: '/api/create-checkout-session', payload: body, headers: viaGateway(ip) });
}

/**
 * Buys a plot the way a browser does: create the checkout session through payments' HTTP route, then pay
 * (the test checkout's Pay button, or the fake Stripe marking it paid and the browser verifying).
 */
export async function buyAndPay(world: World, body: { tier: Tier; x: number; y: number }): Promise<string> {
  const created = await startCheckout(world, body);
  if (created.statusCode !== 200) throw new Error(`checkout failed: ${created.statusCode} ${created.body}`);
  const { url, sessionId } = created.json<{ url: string; sessionId: string }>();
  if (world.fakeStripe) {
    world.fakeStripe.complete(sessionId);
  } else {
    const paid = await payTestCheckout(world, url);
    if (paid.statusCode !== 303) throw new Error(`test checkout pay failed: ${paid.statusCode} ${paid.body}`);
  }
  return sessionId;
}
/** The Pay button of the built-in test checkout page at `url`, pressed (303 to the claim page once paid). */
export async function payTestCheckout(world: World, url: string): Promise<LightMyRequestResponse> {
  return world.payments.inject({
    method: 'POST',
    url: `${url}/pay`,
    headers: { ...viaGateway(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
}

export async function claimBody(sessionId: string, tier: Tier, x: number, y: number, overrides: Record<string, unknown> = {}) {
  return {
    display_name: 'Ada Lovelace',
    message: 'First program, first plot.',
    link: 'https://example.com/ada',
    zone: 'nexus',
    x,
    y,
    stripeSessionId: sessionId,
    tier,
    avatar_url: await avatarDataUrl(),
    ...overrides,
  };
}

export async function claim(world: World, payload: Record<string, unknown>, ip?: string): Promise<LightMyRequestResponse> {
  return world.plots.inject({ method: 'POST', url: '/api/claim-plot', payload, headers: viaGateway(ip) });
}

/** Buys and pays for the spot (`buyAndPay`), then claims it with `claimBody` and `overrides`, from `ip` when given. */
export async function buyAndClaim(
  world: World,
  spot: { tier: Tier; x: number; y: number },
  overrides: Record<string, unknown> = {},
  ip?: string,
): Promise<{ sessionId: string; response: LightMyRequestResponse }> {
  const sessionId = await buyAndPay(world, spot);
  const response = await claim(world, await claimBody(sessionId, spot.tier, spot.x, spot.y, overrides), ip);
  return { sessionId, response };
}

export { TIER_SIZE };

export interface StreamedEvent {
  type: string;
  id: string;
  data: any;
}

/** Events on the world's stream (optionally of one type), oldest first: what services really published. */
export async function streamEvents(world: World, type?: string): Promise<StreamedEvent[]> {
  const events = (await readStream(world.stream)).map((message) => message.event);
  return type ? events.filter((event) => event.type === type) : events;
}

/** The events of one type about one checkout session on the world's stream, oldest first. */
export async function sessionEvents(world: World, type: string, sessionId: string): Promise<StreamedEvent[]> {
  return (await streamEvents(world, type)).filter((event) => event.data.sessionId === sessionId);
}

/**
 * The events of one type a service wrote to its outbox (published yet or not), oldest first: everything it will ever
 * publish of that type, as of rows committed so far. Once the change that would have written an event committed, an
 * absent row proves the event is not coming, where reading the stream would have to wait for the relay.
 */
export async function outboxEvents(world: World, service: 'plots' | 'payments' | 'moderation', type: string): Promise<StreamedEvent[]> {
  const rows = await world.db.query<{ payload: StreamedEvent }>(
    `SELECT payload FROM "${service}"."outbox_events" WHERE subject = $1 ORDER BY created_at, id`,
    [type],
  );
  return rows.map((row) => row.payload);
}

/** Publishes an event envelope as its producer's outbox relay would (for producers not built yet). */
export async function publishEvent(world: World, type: string, data: unknown): Promise<void> {
  const nc = await connect(world.stream.connectOptions());
  try {
    const id = randomUUID();
    await jetstream(nc).publish(
      `${world.stream.subjectPrefix}${type}`,
      JSON.stringify({ id, type, occurredAt: new Date().toISOString(), data }),
      { msgID: id },
    );
  } finally {
    await nc.close();
  }
}

/** Headers of an admin request the gateway vouches for (what moderation's admin routes need). */
export function asAdmin(admin = 'warden'): Record<string, string> {
  return { 'x-internal-token': TEST_INTERNAL_TOKEN, 'x-admin-user': admin };
}

/** POST /api/flag-plot as a visitor: with their `pa_visitor` cookie when given, from their address. */
export async function flagPlot(
  world: World,
  plotId: string,
  visitor: { cookie?: string; ip?: string; reason?: string; app?: FastifyInstance } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = viaGateway(visitor.ip);
  if (visitor.cookie) headers.cookie = `pa_visitor=${visitor.cookie}`;
  return (visitor.app ?? world.plots).inject({
    method: 'POST',
    url: '/api/flag-plot',
    payload: visitor.reason === undefined ? { plotId } : { plotId, reason: visitor.reason },
    headers,
  });
}

/** An admin's approve/reject through the moderation app (as the gateway forwards it). */
export async function decide(
  world: World,
  action: 'approve' | 'reject',
  plotId: string,
  admin = 'warden',
): Promise<LightMyRequestResponse> {
  if (!world.moderation) throw new Error('moderation is not running in this world');
  return world.moderation.inject({ method: 'POST', url: `/api/admin/${action}-plot`, payload: { plotId }, headers: asAdmin(admin) });
}

/** Moderation's pending review queue (GET /api/admin/flagged-plots). */
export async function flaggedPlots(world: World): Promise<Array<Record<string, any>>> {
  if (!world.moderation) throw new Error('moderation is not running in this world');
  const response = await world.moderation.inject({ url: '/api/admin/flagged-plots', headers: asAdmin() });
  if (response.statusCode !== 200) throw new Error(`flagged-plots: ${response.statusCode} ${response.body}`);
  return response.json();
}
