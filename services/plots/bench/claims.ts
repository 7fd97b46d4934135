/**
 * Claims per second with 32 concurrent buyers (the load; BENCH_BUYERS=8 for the older figures) on free land: the real map, plots and payments services
 * (in this process, listening on ports) on a throwaway database and stream, over HTTP.
 *
 *   npx tsx services/plots/bench/claims.ts          (BENCH_CLAIMS=400 BENCH_BUYERS=32 BENCH_FLOWS=200)
 *
 * 1. claim only: N sessions are bought and paid first (not timed); then the buyers claim them, each the spot
 *    its checkout held (the normal case), as fast as they can.
 * 2. whole purchase: the buyers each run checkout → pay (test checkout) → claim, end to end.
 */
import { performance } from 'node:perf_hooks';
import { avatarDataUrl, buyAndPay, claimBody, landSpots, startWorld, viaGateway } from '@pixel-atlas/test-stack/world';
import { baseUrl, fmt, percentile, table } from './support.ts';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 400);
const FLOWS = Number(process.env.BENCH_FLOWS ?? 200);
const BUYERS = Number(process.env.BENCH_BUYERS ?? 32);

/** BENCH_PHASE_MARKS=1: prints the monotonic clock (µs, the clock of `--cpu-prof`) at each phase's start and end. */
const mark = (label: string) => {
  if (process.env.BENCH_PHASE_MARKS) console.log(`phase ${label} ${process.hrtime.bigint() / 1000n}`);
};

async function runBuyers<T>(items: T[], buyers: number, work: (item: T) => Promise<void>, label = 'run') {
  mark(`${label}:start`);
  const latencies: number[] = [];
  // One iterator shared by every buyer: each takes the next item the moment it is free.
  const queue = items.values();
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: buyers }, async () => {
      for (const item of queue) {
        const t0 = performance.now();
        try {
          await work(item);
        } catch (error) {
          failures += 1;
          if (failures <= 3) console.error(String(error));
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  mark(`${label}:end`);
  latencies.sort((a, b) => a - b);
  return {
    count: items.length,
    seconds,
    perSecond: items.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures,
  };
}

const world = await startWorld({ listen: true, plotsEnv: { LOG_LEVEL: 'warn' }, paymentsEnv: { LOG_LEVEL: 'warn' } });
try {
  const plots = baseUrl(world.plots);
  const payments = baseUrl(world.payments);
  console.log(`land tiles: ${world.land.size}; buyers: ${BUYERS}; avatar: a 64×64 PNG re-encoded per claim`);
  const spots = landSpots(world, 1, CLAIMS + FLOWS);
  const avatar = await avatarDataUrl();

  // 1. Claim only.
  const prepared: Array<{ sessionId: string; x: number; y: number }> = [];
  for (let i = 0; i < CLAIMS; i += 16) {
    const batch = spots.slice(i, Math.min(i + 16, CLAIMS));
    prepared.push(...(await Promise.all(batch.map(async (s) => ({ ...s, sessionId: await buyAndPay(world, { tier: 'basic', ...s }) })))));
  }
  const claimOnly = await runBuyers(
    prepared,
    BUYERS,
    async ({ sessionId, x, y }) => {
      const response = await fetch(`${plots}/api/claim-plot`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...viaGateway() },
        body: JSON.stringify(await claimBody(sessionId, 'basic', x, y, { display_name: `Buyer ${x}-${y}`, avatar_url: avatar })),
      });
      if (response.status !== 201) throw new Error(`claim ${response.status}: ${await response.text()}`);
    },
    'claim',
  );

  // 2. The whole purchase, over HTTP: checkout → pay → claim.
  const flows = await runBuyers(
    spots.slice(CLAIMS),
    BUYERS,
    async ({ x, y }) => {
      const headers = { 'content-type': 'application/json', ...viaGateway() };
      const created = await fetch(`${payments}/api/create-checkout-session`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ tier: 'basic', x, y }),
      });
      if (created.status !== 200) throw new Error(`checkout ${created.status}: ${await created.text()}`);
      const { url, sessionId } = (await created.json()) as { url: string; sessionId: string };
      const paid = await fetch(`${payments}${url}/pay`, {
        method: 'POST',
        headers: { ...viaGateway(), 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        redirect: 'manual',
      });
      if (paid.status !== 303) throw new Error(`pay ${paid.status}`);
      const claimed = await fetch(`${plots}/api/claim-plot`, {
        method: 'POST',
        headers,
        body: JSON.stringify(await claimBody(sessionId, 'basic', x, y, { avatar_url: avatar })),
      });
      if (claimed.status !== 201) throw new Error(`claim ${claimed.status}: ${await claimed.text()}`);
    },
    'purchase',
  );

  console.log(
    '\n' +
      table([
        {
          scenario: 'claim (POST /api/claim-plot)',
          buyers: BUYERS,
          count: claimOnly.count,
          'per second': fmt(claimOnly.perSecond, 1),
          'p50 ms': fmt(claimOnly.p50, 1),
          'p99 ms': fmt(claimOnly.p99, 1),
          failures: claimOnly.failures,
        },
        {
          scenario: 'checkout → pay → claim',
          buyers: BUYERS,
          count: flows.count,
          'per second': fmt(flows.perSecond, 1),
          'p50 ms': fmt(flows.p50, 1),
          'p99 ms': fmt(flows.p99, 1),
          failures: flows.failures,
        },
      ]),
  );
  const [check] = await world.db.query<{ plots: string; overlaps: string }>(`SELECT (SELECT count(*) FROM plots.plots) AS plots,
    (SELECT count(*) FROM plots.footprints a JOIN plots.footprints b ON a.id < b.id AND int4range(a.x, a.x + a.size) && int4range(b.x, b.x + b.size) AND int4range(a.y, a.y + a.size) && int4range(b.y, b.y + b.size)) AS overlaps`);
  if (!check) throw new Error('the count query returned no row');
  console.log(`\nplots stored: ${check.plots}; overlapping footprints: ${check.overlaps}`);
} finally {
  await world.close();
}
