/**
 * `npm run bench:map`: prints figures, asserts nothing (see bench/README.md).
 *
 * 1. Starts map, contact and the gateway as real processes on a throwaway database and NATS stream
 *    (the map service generates its layout at first start, as a fresh install does).
 * 2. Render benchmark in headless chromium with that layout (render.ts).
 * 3. Layout API benchmark through the gateway and direct (api.ts).
 * Everything started is stopped and removed at the end, also on failure or Ctrl-C.
 *
 * Knobs: BENCH_RENDER_SECONDS (5), BENCH_API_SECONDS (10), BENCH_API_ROUNDS (1: the API seconds in that many runs per
 * row, alternating direct and gateway), BENCH_CONNECTIONS (10), BENCH_PLOTS (2000,full),
 * BENCH_ONLY=render|api, BENCH_LOG_LEVEL (warn) for the services, BENCH_GATEWAY_NODE_ARGS and BENCH_MAP_NODE_ARGS (Node
 * options of those two services, e.g. `--cpu-prof --cpu-prof-dir=<dir>`).
 */
import os from 'node:os';
import type { MapTile } from '@pixel-atlas/contracts/map';
import type { Region } from '@pixel-atlas/contracts/regions';
import { startServiceProcess, type ServiceProcess } from '@pixel-atlas/service-kit/service-process';
import { createTestDatabase, createTestStream, testServiceEnv } from '@pixel-atlas/service-kit/testing';
import { runApiBenchmark } from './api.ts';
import { parsePlotScenarios } from './plots.ts';
import { runRenderBenchmark } from './render.ts';

const RENDER_SECONDS = Number(process.env.BENCH_RENDER_SECONDS ?? 5);
const API_SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const API_ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PLOT_SCENARIOS = parsePlotScenarios(process.env.BENCH_PLOTS ?? '2000,full');
const ONLY = process.env.BENCH_ONLY;

// --- cleanup: a stack of undo steps, run once, in reverse, whatever happens ---
const undo: Array<{ label: string; run: () => Promise<unknown> }> = [];
const onCleanup = (label: string, run: () => Promise<unknown>) => void undo.push({ label, run });
let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of undo.reverse()) {
      try {
        await Promise.race([step.run(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 10_000))]);
      } catch (error) {
        console.error(`cleanup of ${step.label} failed: ${(error as Error).message}`);
      }
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up…`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** Other work on the machine skews every figure here: say how busy it was. */
function loadNote(judge = true): string {
  const [one = 0, five = 0] = os.loadavg();
  const busy = judge && one > os.cpus().length * 0.75 ? ' — the machine is busy with other work: figures are pessimistic' : '';
  return `load average ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min)${busy}`;
}

async function stopService(service: ServiceProcess): Promise<void> {
  const exited = service.stop('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log(`bench:map on ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model.trim()}), Node ${process.version}, ${loadNote()}\n`);

  const db = await createTestDatabase();
  onCleanup(`database ${db.name}`, () => db.drop());
  const stream = await createTestStream();
  onCleanup(`stream ${stream.stream}`, () => stream.remove());
  const env = { ...testServiceEnv(db, stream), NODE_ENV: 'production', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' };

  const start = async (name: string, extra: Record<string, string> = {}) => {
    const service = await startServiceProcess(name, { ...env, ...extra }, { readyTimeoutMs: 60_000 });
    onCleanup(`${name} process`, () => stopService(service));
    return service;
  };
  // allSettled: a service that did start is registered for cleanup even when its sibling fails.
  // BENCH_MAP_NODE_ARGS: the same for the map service, to set the direct side's profile beside the gateway's.
  const [mapStarted, contactStarted] = await Promise.allSettled([
    start('map', { SERVICE_NODE_ARGS: process.env.BENCH_MAP_NODE_ARGS ?? '' }),
    start('contact'),
  ]);
  if (mapStarted.status === 'rejected') throw mapStarted.reason;
  if (contactStarted.status === 'rejected') throw contactStarted.reason;
  const [map, contact] = [mapStarted.value, contactStarted.value];
  const gateway = await start('gateway', {
    MAP_URL: map.url,
    CONTACT_URL: contact.url,
    // The per-client ceiling (600/min by default) would turn the load test into a 429 test.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    // Production mode requires the public address; nothing here follows the links it writes.
    PUBLIC_ORIGIN: 'http://127.0.0.1',
    // e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where the gateway's time goes.
    SERVICE_NODE_ARGS: process.env.BENCH_GATEWAY_NODE_ARGS ?? '',
  });

  const layoutResponse = await fetch(`${map.url}/api/map-layout`);
  if (!layoutResponse.ok) throw new Error(`map-layout answered ${layoutResponse.status}: ${await layoutResponse.text()}`);
  const layout = (await layoutResponse.json()) as { tiles: MapTile[]; regions: Region[]; seed: string };
  const land = layout.tiles.filter((t) => t.is_land).length;
  console.log(
    `services up in ${((performance.now() - started) / 1000).toFixed(1)} s: layout seed "${layout.seed}", ${layout.tiles.length} tiles (${land} land), ${layout.regions.length} regions\n`,
  );

  if (ONLY !== 'api') {
    const render = await runRenderBenchmark({
      layout: { tiles: layout.tiles, regions: layout.regions },
      scenarios: PLOT_SCENARIOS,
      durationMs: RENDER_SECONDS * 1000,
      warmupMs: 500,
      onCleanup,
    });
    console.log(render.report, '\n');
  }

  if (ONLY !== 'render') {
    const api = await runApiBenchmark({
      targets: [
        { name: 'direct', base: map.url, pid: map.child.pid },
        { name: 'gateway', base: gateway.url, pid: gateway.child.pid },
      ],
      connections: CONNECTIONS,
      durationSeconds: API_SECONDS,
      rounds: API_ROUNDS,
      warmupSeconds: 2,
    });
    console.log(api.report, '\n');
  }
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s (cleanup follows); ${loadNote(false)}, this run included`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  console.error('bench:map failed:', error);
} finally {
  await cleanup();
}
process.exit(exitCode);
