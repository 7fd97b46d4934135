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
 * all, which `--cpu-prof` can read whole). BENCH_PLOTS_NODE_ARGS profiles the plots processes, BENCH_SERVICES_NODE_ARGS
 * every service's (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 *
 * 1. claim only: N sessions are bought and paid first (not timed); then the buyers claim them, each the spot
 *    its checkout held (the normal case), as fast as they can.
 * 2. whole purchase: the buyers each run checkout → pay (test checkout) → claim, end to end.
 * Then every claim is checked in SQL: one plot per paid session, no two footprints overlapping.
 * 3. the floor: the same buyers post the same bodies to a bare node:http server that stores each with one durable
 *    INSERT, without and with the claim's avatar re-encode (claim-floor-server.ts): the most any claim could reach on
 *    this machine, and the claim's ratio to it.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { postgresCpuMs, processCpuMs } from '@pixel-atlas/test-stack/process-cpu';
import { startProcessStack } from '@pixel-atlas/test-stack/process-stack';
import { avatarDataUrl, claimBody, landSpots, photoAvatarDataUrl, startWorld, viaGateway } from '@pixel-atlas/test-stack/world';
import { baseUrl, fmt, percentile, table } from './support.ts';

const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 1000);
const FLOWS = Number(process.env.BENCH_FLOWS ?? 300);
const BUYERS = Number(process.env.BENCH_BUYERS ?? 32);
const STACK = process.env.BENCH_STACK ?? 'processes';
const PLOTS_REPLICAS = Number(process.env.BENCH_PLOTS_REPLICAS ?? 1);
/** photo (default): a 100×100 photo-like PNG, as the web's crop editor sends; flat: the older 64×64 flat-colour PNG. */
const AVATAR = process.env.BENCH_AVATAR ?? 'photo';
if (AVATAR !== 'photo' && AVATAR !== 'flat') throw new Error(`BENCH_AVATAR: photo or flat, not ${AVATAR}`);
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
  databaseUrl: string;
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
      databaseUrl: world.db.url,
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
    env: process.env.BENCH_SERVICES_NODE_ARGS ? { SERVICE_NODE_ARGS: process.env.BENCH_SERVICES_NODE_ARGS } : undefined,
    serviceEnv: { plots: { SERVICE_NODE_ARGS: process.env.BENCH_PLOTS_NODE_ARGS ?? process.env.BENCH_SERVICES_NODE_ARGS ?? '' } },
  });
  return {
    databaseUrl: stack.db.url,
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

/**
 * The same buyers and bodies against the floor (claim-floor-server.ts in its own process): a bare node:http server
 * storing each body with one durable INSERT, with (`reencode`) or without the claim's avatar re-encode. What it
 * reaches on this machine bounds what any claim can.
 */
async function runFloor(stack: Stack, reencode: boolean, bodies: Array<Record<string, unknown>>) {
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'claim-floor-server.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: stack.databaseUrl,
      FLOOR_TABLE: reencode ? 'floor_reencode' : 'floor_plain',
      FLOOR_AVATAR: reencode ? '1' : '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.stdout.on('data', (chunk: Buffer) => {
        const match = /listening (\d+)/.exec(String(chunk));
        if (match) resolve(Number(match[1]));
      });
      server.on('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
    });
    const url = `http://127.0.0.1:${port}/`;
    const post = async (body: Record<string, unknown>) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (response.status !== 201) throw new Error(`floor ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    };
    for (const body of bodies.slice(0, 50)) await post(body); // warm-up, not timed
    const cpu = () => ({ server: processCpuMs(server.pid) ?? 0, postgres: postgresCpuMs(), buyers: ownCpuMs() });
    const before = cpu();
    const result = await runBuyers(bodies.slice(50), BUYERS, (body) => post(body), reencode ? 'floor-reencode' : 'floor');
    const after = cpu();
    const perRequest = (key: keyof typeof before) => (after[key] - before[key]) / result.count;
    return { ...result, cpu: { server: perRequest('server'), postgres: perRequest('postgres'), buyers: perRequest('buyers') } };
  } finally {
    server.kill('SIGTERM');
  }
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
      `land tiles: ${stack.land.size}; buyers: ${BUYERS}; ` +
      `avatar: ${AVATAR === 'photo' ? 'a 100×100 photo-like PNG (as the web sends)' : 'a 64×64 flat-colour PNG'} re-encoded per claim`,
  );
  const spots = landSpots(stack, 1, CLAIMS + FLOWS);
  const avatar = AVATAR === 'photo' ? await photoAvatarDataUrl() : await avatarDataUrl();

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

  // 3. The floor: the same bodies, buyers and database, against a bare server (see runFloor).
  const floorBodies = await Promise.all(
    Array.from({ length: Math.min(CLAIMS, 1000) + 50 }, (_, i) =>
      claimBody('cs_floor', 'basic', i % 90, Math.floor(i / 90) % 90, { display_name: `Buyer ${i}`, avatar_url: avatar }),
    ),
  );
  const floors = [await runFloor(stack, false, floorBodies), await runFloor(stack, true, floorBodies)];
  console.log(
    '\nThe floor on this machine: the same buyers and bodies, a bare node:http server and one durable INSERT per request\n\n' +
      table(
        [
          { scenario: 'floor: parse + INSERT', result: floors[0]! },
          { scenario: 'floor: parse + avatar re-encode + INSERT', result: floors[1]! },
        ].map(({ scenario, result }) => ({
          scenario,
          'per second': fmt(result.perSecond, 1),
          'p50 ms': fmt(result.p50, 1),
          'CPU ms: server': fmt(result.cpu.server, 2),
          postgres: fmt(result.cpu.postgres, 2),
          buyers: fmt(result.cpu.buyers, 2),
          all: fmt(result.cpu.server + result.cpu.postgres + result.cpu.buyers, 2),
          'claim / floor': fmt(claimOnly.perSecond / result.perSecond, 2) + '×',
        })),
      ),
  );
  const [check] = await stack.query<{ plots: string; sessions: string; overlaps: string }>(`SELECT
    (SELECT count(*) FROM plots.plots) AS plots,
    (SELECT count(DISTINCT stripe_session_id) FROM plots.plots) AS sessions,
    (SELECT count(*) FROM plots.footprints a JOIN plots.footprints b ON a.id < b.id AND int4range(a.x, a.x + a.size) && int4range(b.x, b.x + b.size) AND int4range(a.y, a.y + a.size) && int4range(b.y, b.y + b.size)) AS overlaps`);
  if (!check) throw new Error('the count query returned no row');
  console.log(`\nplots stored: ${check.plots}, from ${check.sessions} distinct paid sessions; overlapping footprints: ${check.overlaps}`);
} finally {
  await stack.stop();
}
