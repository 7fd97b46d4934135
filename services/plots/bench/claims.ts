/**
 * Claims per second with 32 concurrent buyers (the issue's load; BENCH_BUYERS=8 for the older figures) on free land,
 * over HTTP, on a throwaway database and stream.
 *
 *   npm run bench:claims          (BENCH_CLAIMS=1000 BENCH_BUYERS=32 BENCH_FLOWS=300)
 *
 * BENCH_STACK=processes (the default): every service its own process as production runs it (startProcessStack),
 * BENCH_PLOTS_REPLICAS plots replicas (default 1: on 2 cores a second one made 92.6 claims/s where one made 105.1) that
 * the buyers use in turn, as the gateway spreads them.
 * BENCH_STACK=in-process: map, plots, payments and moderation in this process (the older figures; one thread for
 * all, which `--cpu-prof` can read whole). BENCH_PLOTS_NODE_ARGS profiles the plots processes.
 *
 * 1. claim only: N sessions are bought and paid first (not timed); then the buyers claim them, each the spot
 *    its checkout held (the normal case), as fast as they can.
 * 2. whole purchase: the buyers each run checkout → pay (test checkout) → claim, end to end.
 * Then every claim is checked in SQL: one plot per paid session, no two footprints overlapping.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { postgresCpuMs, processCpuMs } from '@pixel-atlas/test-stack/process-cpu';
import { startProcessStack } from '@pixel-atlas/test-stack/process-stack';
import { avatarDataUrl, claimBody, landSpots, startWorld, viaGateway } from '@pixel-atlas/test-stack/world';
import { baseUrl, fmt, percentile, table } from './support.ts';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 1000);
const FLOWS = Number(process.env.BENCH_FLOWS ?? 300);
const BUYERS = Number(process.env.BENCH_BUYERS ?? 32);
const STACK = process.env.BENCH_STACK ?? 'processes';
const PLOTS_REPLICAS = Number(process.env.BENCH_PLOTS_REPLICAS ?? 1);
if (STACK !== 'processes' && STACK !== 'in-process') throw new Error(`BENCH_STACK: processes or in-process, not ${STACK}`);

/** BENCH_PHASE_MARKS=1: prints the monotonic clock (µs, the clock of `--cpu-prof`) at each phase's start and end. */
const mark = (label: string) => {
  if (process.env.BENCH_PHASE_MARKS) console.log(`phase ${label} ${process.hrtime.bigint() / 1000n}`);
};

async function runBuyers<T>(items: T[], buyers: number, work: (item: T, buyer: number) => Promise<void>, label = 'run') {
  mark(`${label}:start`);
  const latencies: number[] = [];
  // One iterator shared by every buyer: each takes the next item the moment it is free.
  const queue = items.values();
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: buyers }, async (_, buyer) => {
      for (const item of queue) {
        const t0 = performance.now();
        try {
          await work(item, buyer);
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

/** The system under test: where payments and each plots replica answer, its database, its land, and how it stops. */
interface Stack {
  payments: string;
  plots: string[];
  land: Set<string>;
  query<R>(sql: string): Promise<R[]>;
  /** CPU time used so far (ms), by process: each service (replicas summed), PostgreSQL, this process. */
  cpu(): Record<string, number>;
  stop(): Promise<void>;
}

const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function startStack(): Promise<Stack> {
  if (STACK === 'in-process') {
    const world = await startWorld({ listen: true, plotsEnv: { LOG_LEVEL: 'warn' }, paymentsEnv: { LOG_LEVEL: 'warn' } });
    return {
      payments: baseUrl(world.payments),
      plots: [baseUrl(world.plots)],
      land: world.land,
      query: (sql) => world.db.query(sql),
      cpu: () => ({ 'services and buyers (this process)': ownCpuMs(), postgres: postgresCpuMs() }),
      stop: () => world.close(),
    };
  }
  const stack = await startProcessStack({
    replicas: { plots: PLOTS_REPLICAS, contact: 0 },
    serviceEnv: { plots: { SERVICE_NODE_ARGS: process.env.BENCH_PLOTS_NODE_ARGS ?? '' } },
  });
  return {
    payments: stack.replicas.payments[0]!.url,
    plots: stack.replicas.plots.map((replica) => replica.url),
    land: stack.land,
    query: (sql) => stack.db.query(sql),
    cpu: () => {
      const byService: Record<string, number> = {};
      for (const replica of stack.processes())
        byService[replica.name] = (byService[replica.name] ?? 0) + (processCpuMs(replica.child.pid) ?? 0);
      return { ...byService, postgres: postgresCpuMs(), 'buyers (this process)': ownCpuMs() };
    },
    stop: () => stack.stop(),
  };
}

/** The buyer's checkout (a hold on the spot) and payment through the test checkout; returns the paid session. */
async function checkoutAndPay(payments: string, spot: { x: number; y: number }): Promise<string> {
  const created = await fetch(`${payments}/api/create-checkout-session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...viaGateway() },
    body: JSON.stringify({ tier: 'basic', ...spot }),
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
  return sessionId;
}

const stack = await startStack();
try {
  const plotsUrl = (buyer: number) => stack.plots[buyer % stack.plots.length]!;
  const claim = async (buyer: number, sessionId: string, spot: { x: number; y: number }, overrides: Record<string, unknown>) => {
    const response = await fetch(`${plotsUrl(buyer)}/api/claim-plot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...viaGateway() },
      body: JSON.stringify(await claimBody(sessionId, 'basic', spot.x, spot.y, overrides)),
    });
    if (response.status !== 201) throw new Error(`claim ${response.status}: ${await response.text()}`);
  };
  console.log(
    `${STACK === 'processes' ? `services as processes, ${stack.plots.length} plots replicas` : 'services in this process'}; ` +
      `land tiles: ${stack.land.size}; buyers: ${BUYERS}; avatar: a 64×64 PNG re-encoded per claim`,
  );
  const spots = landSpots(stack, 1, CLAIMS + FLOWS);
  const avatar = await avatarDataUrl();

  // 1. Claim only.
  const prepared: Array<{ sessionId: string; x: number; y: number }> = [];
  for (let i = 0; i < CLAIMS; i += 16) {
    const batch = spots.slice(i, Math.min(i + 16, CLAIMS));
    prepared.push(...(await Promise.all(batch.map(async (s) => ({ ...s, sessionId: await checkoutAndPay(stack.payments, s) })))));
  }
  // The payments' events reach plots (its own copy of each entitlement) before the claims start, as they would for
  // buyers who take a few seconds to fill in the form.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const cpuBefore = stack.cpu();
  const claimOnly = await runBuyers(
    prepared,
    BUYERS,
    ({ sessionId, x, y }, buyer) => claim(buyer, sessionId, { x, y }, { display_name: `Buyer ${x}-${y}`, avatar_url: avatar }),
    'claim',
  );

  const cpuAfter = stack.cpu();
  // Events the claims caused (relay, consumers) are still being handled for a moment after the last answer: counted
  // in the purchase phase instead, which is why this is a floor.
  const cpuPerClaim = Object.entries(cpuAfter).map(([name, after]) => ({
    process: name,
    'CPU ms per claim': fmt((after - (cpuBefore[name] ?? 0)) / CLAIMS, 2),
  }));
  const totalPerClaim = Object.entries(cpuAfter).reduce((sum, [name, after]) => sum + after - (cpuBefore[name] ?? 0), 0) / CLAIMS;
  cpuPerClaim.push({ process: 'all', 'CPU ms per claim': fmt(totalPerClaim, 2) });

  // 2. The whole purchase, over HTTP: checkout → pay → claim.
  const flows = await runBuyers(
    spots.slice(CLAIMS),
    BUYERS,
    async (spot, buyer) => claim(buyer, await checkoutAndPay(stack.payments, spot), spot, { avatar_url: avatar }),
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
  console.log(`\nCPU during the claim phase (${os.cpus().length} cores)\n\n${table(cpuPerClaim)}`);
  const [check] = await stack.query<{ plots: string; sessions: string; overlaps: string }>(`SELECT
    (SELECT count(*) FROM plots.plots) AS plots,
    (SELECT count(DISTINCT stripe_session_id) FROM plots.plots) AS sessions,
    (SELECT count(*) FROM plots.footprints a JOIN plots.footprints b ON a.id < b.id AND int4range(a.x, a.x + a.size) && int4range(b.x, b.x + b.size) AND int4range(a.y, a.y + a.size) && int4range(b.y, b.y + b.size)) AS overlaps`);
  if (!check) throw new Error('the count query returned no row');
  console.log(`\nplots stored: ${check.plots}, from ${check.sessions} distinct paid sessions; overlapping footprints: ${check.overlaps}`);
} finally {
  await stack.stop();
}
