import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buyAndClaim, flagPlot, landSpots, startCheckout, viaGateway } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';

// Two replicas of plots and of payments over one database: a client gets the limit once between them,
// exactly as with one replica (the counts live in each service's rate_limit_hits table, not in memory).
const FLAG_LIMIT = 4;
const CHECKOUT_LIMIT = 3;
const world = worldPerFile({
  plotsEnv: { FLAG_RATE_LIMIT_MAX: String(FLAG_LIMIT), FLAG_RATE_LIMIT_WINDOW_MS: '600000' },
  paymentsEnv: { CHECKOUT_RATE_LIMIT_MAX: String(CHECKOUT_LIMIT), CHECKOUT_RATE_LIMIT_WINDOW_MS: '600000' },
});
let plotsTwo: FastifyInstance;
let paymentsTwo: FastifyInstance;
let spots: Array<{ x: number; y: number }>;

beforeAll(async () => {
  [plotsTwo, paymentsTwo] = [await world.spawn('plots'), await world.spawn('payments')];
  spots = landSpots(world, 4, 12);
});

const checkoutOn = (app: FastifyInstance, ip: string) =>
  app.inject({
    method: 'POST',
    url: '/api/create-checkout-session',
    payload: { tier: 'basic', ...spots.shift()! },
    headers: viaGateway(ip),
  });

describe('per-client limits with two replicas of each service', () => {
  it(`flags: ${FLAG_LIMIT} requests alternating between plots replicas, then 429`, async () => {
    const spot = spots.shift()!;
    const { response: claimed } = await buyAndClaim(world, { tier: 'basic', ...spot });
    expect(claimed.statusCode).toBe(201);
    const plotId = claimed.json().plot.id as string;
    const ip = '192.0.2.10';
    const statuses: number[] = [];
    for (let i = 0; i <= FLAG_LIMIT; i += 1)
      statuses.push((await flagPlot(world, plotId, { ip, app: i % 2 ? plotsTwo : world.plots })).statusCode);
    expect(statuses).toEqual([...Array(FLAG_LIMIT).fill(200), 429]);
    // Refused on either replica, and another client is untouched.
    expect((await flagPlot(world, plotId, { ip, app: world.plots })).statusCode).toBe(429);
    expect((await flagPlot(world, plotId, { ip: '192.0.2.11', app: plotsTwo })).statusCode).toBe(200);
  });

  it(`checkouts: ${CHECKOUT_LIMIT} requests alternating between payments replicas, then 429`, async () => {
    const ip = '192.0.2.20';
    const statuses: number[] = [];
    for (let i = 0; i <= CHECKOUT_LIMIT; i += 1) statuses.push((await checkoutOn(i % 2 ? paymentsTwo : world.payments, ip)).statusCode);
    expect(statuses).toEqual([...Array(CHECKOUT_LIMIT).fill(200), 429]);
    const refused = await checkoutOn(paymentsTwo, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    expect((await startCheckout(world, { tier: 'basic', ...spots.shift()! }, '192.0.2.21')).statusCode).toBe(200);
  });
});
