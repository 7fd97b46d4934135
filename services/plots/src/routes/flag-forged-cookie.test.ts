import fastifyCookie from '@fastify/cookie';
import { TEST_INTERNAL_TOKEN } from '@pixel-atlas/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { defaultVisitorCookieSecret } from '../domain/flag-plot.ts';
import { loadEnv } from '../env.ts';
import { buyAndClaim, flagPlot } from '@pixel-atlas/test-stack/world';
import { worldPerFile } from '@pixel-atlas/test-stack/world-per-file';
import { spotSupply } from '@pixel-atlas/test-stack/spot-supply';

// Flags count once per visitor; a visitor is a cookie WE signed, so a script minting cookies is one address.
// A per-address limit above 30, so the script below is not stopped by the rate limit but by the signature.
const world = worldPerFile({ moderation: false, plotsEnv: { FLAG_RATE_LIMIT_MAX: '100' } });

const issued = (response: { headers: Record<string, unknown> }) =>
  ([] as string[]).concat((response.headers['set-cookie'] as string[] | string | undefined) ?? []).find((c) => c.startsWith('pa_visitor='));
const flagRows = async (plotId: string) =>
  world.db.query<{ visitor_key: string }>(`SELECT visitor_key FROM plots.plot_flags WHERE plot_id = $1 ORDER BY created_at`, [plotId]);

const nextSpot = spotSupply(world, 1, 2);
async function claimedPlot(): Promise<string> {
  const spot = nextSpot();
  const { response } = await buyAndClaim(world, { tier: 'basic', ...spot });
  expect(response.statusCode).toBe(201);
  return response.json().plot.id;
}

describe('forged pa_visitor cookies', () => {
  it('30 flags with 30 forged cookies (unsigned, or signed with another secret) from one address count once', async () => {
    const plotId = await claimedPlot();
    const ip = '198.51.100.30';
    const otherSecret = defaultVisitorCookieSecret('someone-elses-internal-token-0123');
    const statuses = [];
    for (let i = 0; i < 30; i++) {
      const value = `forged-visitor-${String(i).padStart(4, '0')}-abcdefgh`;
      const response = await flagPlot(world, plotId, { ip, cookie: i % 2 === 0 ? value : fastifyCookie.sign(value, otherSecret) });
      statuses.push(response.statusCode);
      // The forged cookie is replaced by one of ours.
      expect(issued(response)).toMatch(/^pa_visitor=[A-Za-z0-9_-]{32}\./);
    }
    expect(statuses).toEqual(Array(30).fill(200));
    expect(await flagRows(plotId)).toEqual([{ visitor_key: `ip:${ip}` }]);
    const [row] = await world.db.query<{ flagged: boolean }>(`SELECT flagged FROM plots.plots WHERE id = $1`, [plotId]);
    expect(row?.flagged).toBe(true);
  });

  it('a cookie we signed still names its visitor from any address; the same value unsigned does not', async () => {
    const plotId = await claimedPlot();
    const secret = defaultVisitorCookieSecret(TEST_INTERNAL_TOKEN);
    const value = 'genuine-visitor-0123456789abcdef';
    for (const ip of ['198.51.100.31', '198.51.100.32']) {
      const response = await flagPlot(world, plotId, { ip, cookie: fastifyCookie.sign(value, secret) });
      expect(response.statusCode).toBe(200);
      expect(issued(response)).toBeUndefined();
    }
    await flagPlot(world, plotId, { ip: '198.51.100.33', cookie: value });
    expect((await flagRows(plotId)).map((r) => r.visitor_key)).toEqual([
      expect.stringMatching(/^cookie:[0-9a-f]{64}$/),
      'ip:198.51.100.33',
    ]);
  });
});

describe('VISITOR_COOKIE_SECRET', () => {
  const base = { DATABASE_URL: 'postgresql://x@localhost/db', NATS_URL: 'nats://localhost:4222', INTERNAL_TOKEN: 'x'.repeat(20) };
  it('is required in production (and with NODE_ENV unset); development and test derive one from INTERNAL_TOKEN', () => {
    expect(() => loadEnv({ ...base, NODE_ENV: 'production' })).toThrow(
      /VISITOR_COOKIE_SECRET: is required unless NODE_ENV is explicitly development or test/,
    );
    expect(() => loadEnv(base)).toThrow(/VISITOR_COOKIE_SECRET: is required/);
    expect(() => loadEnv({ ...base, NODE_ENV: 'production', VISITOR_COOKIE_SECRET: 'short' })).toThrow(
      /VISITOR_COOKIE_SECRET: must be at least 32 characters/,
    );
    expect(loadEnv({ ...base, NODE_ENV: 'production', VISITOR_COOKIE_SECRET: 's'.repeat(32) }).VISITOR_COOKIE_SECRET).toBe('s'.repeat(32));
    expect(loadEnv({ ...base, NODE_ENV: 'test' }).VISITOR_COOKIE_SECRET).toBeUndefined();
    expect(defaultVisitorCookieSecret(base.INTERNAL_TOKEN)).not.toContain(base.INTERNAL_TOKEN);
  });
});
