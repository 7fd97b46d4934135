/**
 * `npm run bench:load` — a mixed workload through the gateway against every service running as real
 * processes (as in production), at 1 and at 2 replicas per service: requests/s, p50/p99 latency, error
 * rate, and the scaling ratio (2 replicas / 1).
 *
 *   BENCH_DURATION=10 (seconds per run)  BENCH_CONNECTIONS=32  BENCH_CLAIMS=250 (pre-paid sessions per run)
 *   BENCH_REPLICAS=1,2  BENCH_ROUNDS=2 (runs per setting, interleaved 1,2,2,1 so drift in the machine's load
 *   falls on both; the ratio uses the mean of each setting)
 *
 * Each run gets a fresh database (on the machine's PostgreSQL, DATABASE_URL) and its own nats-server.
 * Prepared before the timed window (not measured): a generated map, 40 claimed plots to read and flag,
 * BENCH_CLAIMS checkout sessions bought and paid through the gateway (each holding its own square).
 * The mix, cycled by every connection (20 requests): 8 map views (GET /api/map-layout, half of them with
 * If-None-Match → 304), 5 plot reads (GET /api/plots/:id), 1 plot list (GET /api/plots), 3 position
 * checks, 2 flags (each from a new visitor), 1 claim (a pre-paid session; a position check once they
 * run out). autocannon runs in its own process (bench/load/worker.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TestNatsServer } from '@pixel-atlas/service-kit/test-nats-server';
import { fmt, table } from '../../services/plots/bench/support.ts';
import { overlappingFootprints } from '../../faults/support/checks.ts';
import { startFaultStack, type BackendName } from '../../faults/support/stack.ts';
import { api, avatarDataUrl, buyMany, claimBody, claimPlot, spots } from '../../faults/support/traffic.ts';
import type { LoadPlan, RequestKind, WorkerResult } from './plan.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 250);
const REPLICAS = (process.env.BENCH_REPLICAS ?? '1,2').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const READ_PLOTS = 40;
const MIX: RequestKind[] = [
  'map',
  'mapCached',
  'plot',
  'position',
  'map',
  'mapCached',
  'plot',
  'flag',
  'map',
  'mapCached',
  'plot',
  'position',
  'list',
  'mapCached',
  'plot',
  'claim',
  'map',
  'plot',
  'position',
  'flag',
];

async function runWorker(plan: LoadPlan): Promise<WorkerResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pa-load-'));
  try {
    const file = path.join(dir, 'plan.json');
    await writeFile(file, JSON.stringify(plan));
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'worker.ts'), file], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (err += chunk));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`load worker exited ${code}: ${err}`))));
    });
    return JSON.parse(output) as WorkerResult;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface RunSummary {
  replicas: number;
  /** 1-minute load average of the machine when the timed window began (other work on the machine shows here). */
  loadAverage: number;
  result: WorkerResult;
  processes: number;
  plotsAfter: number;
  overlaps: number;
}

async function runAt(replicas: number): Promise<RunSummary> {
  const nats = await TestNatsServer.start();
  const counts: Partial<Record<BackendName, number>> = {
    map: replicas,
    plots: replicas,
    payments: replicas,
    moderation: replicas,
    contact: 0,
  };
  const stack = await startFaultStack({ nats, replicas: counts, logLevel: 'warn' });
  try {
    const processes = Object.values(stack.replicas).flat().length + 1;
    console.log(`\n[${replicas} replica${replicas > 1 ? 's' : ''} per service] ${processes} processes up; preparing (not timed)…`);
    // Plots to read and flag, and the pre-paid sessions for the timed claims, on separate squares.
    const squares = spots(stack, 1, READ_PLOTS + CLAIMS + 200);
    const readers = await buyMany(stack, 'basic', squares.slice(0, READ_PLOTS));
    const plotIds: string[] = [];
    for (const session of readers) {
      const response = await claimPlot(stack, session);
      if (response.status !== 201) throw new Error(`preparing plots: claim ${response.status} ${JSON.stringify(response.body)}`);
      plotIds.push(response.body.plot.id);
    }
    const paid = await buyMany(stack, 'basic', squares.slice(READ_PLOTS, READ_PLOTS + CLAIMS));
    const avatar = await avatarDataUrl();
    const claims = await Promise.all(
      paid.map(async (s) =>
        JSON.stringify(
          await claimBody(s.sessionId, 'basic', s.x, s.y, {
            display_name: `Loader ${s.x}-${s.y}`,
            message: 'Load test plot.',
            avatar_url: avatar,
          }),
        ),
      ),
    );
    const layout = await api(stack, 'GET', '/api/map-layout');
    const mapEtag = layout.headers.get('etag');
    if (layout.status !== 200 || !mapEtag) throw new Error(`map layout: ${layout.status}, etag ${mapEtag}`);
    const positions = squares.slice(READ_PLOTS + CLAIMS);
    console.log(
      `  ${plotIds.length} plots to read/flag, ${claims.length} pre-paid sessions, ${positions.length} squares to ask about; running ${DURATION} s with ${CONNECTIONS} connections…`,
    );

    const [loadAverage = 0] = os.loadavg();
    const result = await runWorker({
      url: stack.gateway.url,
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      mix: MIX,
      mapEtag,
      plotIds,
      positions,
      claims,
    });
    const plotsAfter = await stack.db.count('plots.plots');
    const { overlaps } = await overlappingFootprints(stack.db);
    return { replicas, loadAverage, result, processes, plotsAfter, overlaps };
  } finally {
    await stack.stop();
    await nats.destroy();
  }
}

const errorsOf = (r: WorkerResult) => r.errors + r.timeouts + r.by['4xx'] + r.by['5xx'];
const errorRate = (r: WorkerResult) => errorsOf(r) / Math.max(1, r.requests + r.errors + r.timeouts);

// ABBA order: 1,2 then 2,1 (and so on), so a change in the machine's background load hits both settings.
const order: number[] = [];
for (let round = 0; round < ROUNDS; round++) order.push(...(round % 2 === 0 ? REPLICAS : [...REPLICAS].reverse()));
const runs: RunSummary[] = [];
for (const n of order) runs.push(await runAt(n));
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const settings = REPLICAS.map((replicas) => {
  const of = runs.filter((r) => r.replicas === replicas);
  return {
    replicas,
    rps: mean(of.map((r) => r.result.requestsPerSecond)),
    p50: mean(of.map((r) => r.result.p50)),
    p99: mean(of.map((r) => r.result.p99)),
    errorRate: mean(of.map((r) => errorRate(r.result))),
  };
});

console.log(
  `\nMixed workload through the gateway — ${CONNECTIONS} connections, ${DURATION} s per run; mix per 20 requests: 8 map views (4 with If-None-Match), 5 plot reads, 1 plot list, 3 position checks, 2 flags, 1 claim\n`,
);
console.log(
  table(
    runs.map((r, i) => ({
      run: i + 1,
      'replicas per service': r.replicas,
      'load avg': fmt(r.loadAverage, 1),
      processes: r.processes,
      requests: fmt(r.result.requests),
      'req/s': fmt(r.result.requestsPerSecond),
      'p50 ms': fmt(r.result.p50),
      'p99 ms': fmt(r.result.p99),
      errors: errorsOf(r.result),
      'error rate': `${fmt(errorRate(r.result) * 100, 2)} %`,
      'claims 201/answered': `${r.result.statuses.claim?.['201'] ?? 0}/${Object.values(r.result.statuses.claim ?? {}).reduce((a, b) => a + b, 0)}`,
      'overlaps (SQL)': r.overlaps,
    })),
  ),
);
console.log(`\nMean per setting (${ROUNDS} run${ROUNDS > 1 ? 's' : ''} each):`);
console.log(
  table(
    settings.map((m) => ({
      'replicas per service': m.replicas,
      'req/s': fmt(m.rps),
      'p50 ms': fmt(m.p50),
      'p99 ms': fmt(m.p99),
      'error rate': `${fmt(m.errorRate * 100, 2)} %`,
    })),
  ),
);
console.log('\nStatus codes per request kind:');
const kinds = [...new Set(runs.flatMap((r) => Object.keys(r.result.statuses)))].sort();
console.log(
  table(
    kinds.flatMap((kind) =>
      runs.map((r, i) => ({
        kind,
        run: i + 1,
        'replicas per service': r.replicas,
        statuses: Object.entries(r.result.statuses[kind] ?? {})
          .map(([status, n]) => `${status}×${fmt(n)}`)
          .join(', '),
      })),
    ),
  ),
);
const one = settings.find((m) => m.replicas === 1);
const two = settings.find((m) => m.replicas === 2);
if (one && two) {
  console.log(
    `\nScaling ratio (2 replicas / 1, means): ${fmt(two.rps / one.rps, 2)}× requests/s, p99 ${fmt(two.p99 / Math.max(1, one.p99), 2)}×.`,
  );
}
console.log(
  `Note: all processes (${[...new Set(runs.map((r) => `${r.processes} service processes at ${r.replicas} replica${r.replicas > 1 ? 's' : ''}`))].join(' / ')}, plus PostgreSQL, nats-server and the load generator) share this machine's ${os.cpus().length} CPU cores, so the ratio measures the overhead of running more replicas more than added capacity (what a second replica can add here is mostly a second event loop on a core the first one left idle; on separate machines each replica brings its own cores). One gateway process fronts both runs.`,
);
