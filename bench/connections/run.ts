/**
 * `npm run bench:connections` — a normal visitor while slow clients try to hoard the gateway's connections. Every
 * service is a real process, the gateway in front with its documented defaults (HTTP_* timeouts, connection caps).
 *
 *   BENCH_SLOW_CONNECTIONS=1000  BENCH_SLOW_ADDRESSES=50 (source addresses 127.0.1.1 …; 20 each stays under
 *   MAX_CONNECTIONS_PER_CLIENT)  BENCH_VISITOR_REQUESTS=200 (per path and phase)  BENCH_GATEWAY_ENV='{"HTTP_REQUEST_TIMEOUT_MS":"20000"}'
 *
 * Phase 1, idle: the visitor (127.0.0.1, one keep-alive connection, like a browser tab) fetches `/` and `/api/plots`
 * BENCH_VISITOR_REQUESTS times each: p50 and p99. Phase 2, flood: BENCH_SLOW_CONNECTIONS connections trickle one byte
 * every 500 ms (a third post a megabyte to `/`, a third a contact message to `/api/contact`, a third never finish their
 * headers); the visitor fetches the same again at once (the flood arriving: the gateway is answering and closing the
 * page-body third too) and once only the hoarders are left (held): p50, p99 and the ratio to idle. Then: how long until
 * every slow connection was closed, and the longest each kind was held, beside its documented bound.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startProcessStack } from '@pixel-atlas/test-stack/process-stack';
import { openSlowFlood, SLOW_KINDS, type SlowKind } from '../../services/gateway/src/testing/slow-connections.ts';

const SLOW = Number(process.env.BENCH_SLOW_CONNECTIONS ?? 1000);
const ADDRESSES = Number(process.env.BENCH_SLOW_ADDRESSES ?? 50);
const REQUESTS = Number(process.env.BENCH_VISITOR_REQUESTS ?? 200);
const GATEWAY_ENV = JSON.parse(process.env.BENCH_GATEWAY_ENV ?? '{}') as Record<string, string>;
/** The kit's defaults (packages/service-kit/src/env.ts), unless BENCH_GATEWAY_ENV changes them. */
const HEADERS_TIMEOUT_MS = Number(GATEWAY_ENV.HTTP_HEADERS_TIMEOUT_MS ?? 10_000);
const REQUEST_TIMEOUT_MS = Number(GATEWAY_ENV.HTTP_REQUEST_TIMEOUT_MS ?? 60_000);
const CHECK_MS = Number(GATEWAY_ENV.HTTP_TIMEOUT_CHECK_MS ?? 1000);
const BOUND_MS: Record<SlowKind, number> = {
  'page-body': 0,
  headers: Math.min(HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS) + CHECK_MS,
  'api-body': REQUEST_TIMEOUT_MS + CHECK_MS,
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** One visitor's GETs of `path`, one after another on one keep-alive connection: each one's time, sorted. */
async function visit(port: number, urlPath: string, count: number): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.1' });
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: urlPath, agent, headers: { 'user-agent': 'Mozilla/5.0 bench visitor' } }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          })
          .on('error', reject);
      });
      if (status !== 200) throw new Error(`GET ${urlPath}: ${status}`);
      times.push(performance.now() - started);
    }
  } finally {
    agent.destroy();
  }
  return times.sort((a, b) => a - b);
}

async function measure(port: number) {
  const result: Record<string, { p50: number; p99: number }> = {};
  for (const urlPath of ['/', '/api/plots']) {
    const times = await visit(port, urlPath, REQUESTS);
    result[urlPath] = { p50: percentile(times, 50), p99: percentile(times, 99) };
  }
  return result;
}

async function main() {
  // The built web app's first page when there is one, so `/` is the real document; else a small shell.
  const webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-bench-connections-'));
  const built = await readFile(path.resolve(import.meta.dirname, '../../web/dist/index.html'), 'utf8').catch(() => null);
  await writeFile(path.join(webDir, 'index.html'), built ?? '<!doctype html><title>Pixel Atlas</title><div id="root"></div>');
  const stack = await startProcessStack({
    readyTimeoutMs: 240_000,
    env: { LOG_LEVEL: 'warn' },
    serviceEnv: { gateway: { RATE_LIMIT_PER_MINUTE: '100000000', WEB_DIST_DIR: webDir, ...GATEWAY_ENV } },
  });
  try {
    const port = stack.gateway.port;
    console.log(
      `bench:connections — ${SLOW} slow connections from ${ADDRESSES} addresses; ${REQUESTS} visitor requests per path and phase`,
    );
    console.log(`gateway bounds: headers ${HEADERS_TIMEOUT_MS} ms, request ${REQUEST_TIMEOUT_MS} ms, checked every ${CHECK_MS} ms\n`);
    await measure(port); // warm-up: JIT, connection pools, the plot list cache
    const idle = await measure(port);

    const floodStarted = Date.now();
    const flood = await openSlowFlood({ port, count: SLOW, addresses: ADDRESSES });
    const opened = Date.now() - floodStarted;
    let closedSoFar = 0;
    for (const connection of flood) void connection.closed.then(() => closedSoFar++);
    // Right away: the gateway is also answering and closing the page-body third (the burst of a flood arriving).
    const under = await measure(port);
    const stillOpenAfterVisits = SLOW - closedSoFar;
    // Then with only the hoarders left, trickling: what holding connections alone costs a visitor.
    await Promise.all(flood.filter((c) => c.kind === 'page-body').map((c) => c.closed));
    const heldWhileMeasuring = SLOW - closedSoFar;
    const held = await measure(port);
    const heldAfterVisits = SLOW - closedSoFar;
    const closed = await Promise.all(flood.map(async (c) => ({ kind: c.kind, ...(await c.closed), openedAt: c.openedAt })));
    const allClosedMs = Math.max(...closed.map((c) => c.at)) - floodStarted;

    const row = (label: string, a: { p50: number; p99: number }, b: { p50: number; p99: number }) =>
      console.log(
        `${label.padEnd(28)} ${`${ms(a.p50)} / ${ms(a.p99)}`.padEnd(23)} ${`${ms(b.p50)} / ${ms(b.p99)}`.padEnd(25)} ${(b.p99 / a.p99).toFixed(2)}×`,
      );
    console.log('visitor                      idle p50 / p99          flood p50 / p99           p99 ratio');
    for (const urlPath of ['/', '/api/plots']) row(`${urlPath} (flood arriving)`, idle[urlPath]!, under[urlPath]!);
    for (const urlPath of ['/', '/api/plots']) row(`${urlPath} (held)`, idle[urlPath]!, held[urlPath]!);
    console.log(`\nflood: ${SLOW} connections opened in ${ms(opened)}; ${stillOpenAfterVisits} still open after the first measurement`);
    console.log(`held: ${heldWhileMeasuring} slow connections open when the second measurement began, ${heldAfterVisits} when it ended`);
    console.log(`every slow connection closed ${(allClosedMs / 1000).toFixed(1)} s after the flood began`);
    for (const kind of SLOW_KINDS) {
      const mine = closed.filter((c) => c.kind === kind);
      const held = mine.map((c) => c.at - c.openedAt).sort((a, b) => a - b);
      const answers = [...new Set(mine.map((c) => c.statusLine || '(closed without an answer)'))].join(', ');
      console.log(
        `  ${kind.padEnd(10)} ${mine.length} held p50 ${ms(percentile(held, 50))}, max ${ms(held.at(-1) ?? NaN)} (bound ${BOUND_MS[kind]} ms + scheduling); answered ${answers}`,
      );
    }
  } finally {
    await stack.stop();
  }
}

await main();
