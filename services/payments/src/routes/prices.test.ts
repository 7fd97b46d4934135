import { pricesResponseSchema } from '@pixel-atlas/contracts/payments';
import { DEFAULT_TIER_PRICE_CENTS } from '@pixel-atlas/contracts/tiers';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';
import { startCheckout, viaGateway } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { describe, expect, it } from 'vitest';
import { describeApi } from '../openapi.ts';

const world = worldPerFile({ paymentsEnv: { TIER_PRICES_CENTS: '{"basic":3100,"premium":20000}' } });
const nextSpot = spotSupply(world, 4, 2);

const getPrices = (headers: Record<string, string> = {}) =>
  world.payments.inject({ method: 'GET', url: '/api/prices', headers: { ...viaGateway(), ...headers } });

describe('GET /api/prices', () => {
  it('serves the configured price table: overrides where TIER_PRICES_CENTS sets them, defaults elsewhere', async () => {
    const response = await getPrices();
    expect(response.statusCode).toBe(200);
    expect(pricesResponseSchema.parse(response.json())).toEqual({
      currency: 'usd',
      cents: { basic: 3100, featured: DEFAULT_TIER_PRICE_CENTS.featured, prime: DEFAULT_TIER_PRICE_CENTS.prime, premium: 20000 },
    });
  });

  it('is what a checkout charges', async () => {
    const { cents } = (await getPrices()).json<{ cents: Record<string, number> }>();
    for (const [tier, spot] of [
      ['basic', nextSpot()],
      ['premium', nextSpot()],
    ] as const) {
      const created = await startCheckout(world, { tier, ...spot });
      expect(created.statusCode).toBe(200);
      const payment = await world.payments.db.payment.findUniqueOrThrow({ where: { stripeSessionId: created.json().sessionId } });
      expect(payment.amount).toBe(cents[tier]);
    }
  });

  it('is cacheable: a short max-age and an ETag that revalidates with 304 and no body', async () => {
    const first = await getPrices();
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toMatch(/max-age=\d+/);
    const again = await getPrices({ 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await getPrices({ 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });
});

it('documents in OpenAPI the operations describeApi() describes', async () => {
  const doc = (await world.payments.inject('/openapi.json')).json();
  expect(doc.paths, 'the public document is built from describeApi()').toEqual((await describeApi()).paths);
});
