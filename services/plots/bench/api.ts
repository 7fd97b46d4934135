/**
 * GET /api/plots with 2,000 plots and with the whole grid claimed (8,100 1×1 plots): requests/s and p99
 * directly from plots, through the gateway, and for a static file of the same bytes served by the gateway
 * (the ceiling), with ratios and response sizes. The services run in this process on a throwaway
 * database; autocannon runs in its own process.
 *
 *   npx tsx services/plots/bench/api.ts        (BENCH_DURATION=10 seconds per run, BENCH_CONNECTIONS=32)
 *
 * Bytes on the wire of the spec's list and of `?format=compact` (identity, gzip, brotli) come first, side by
 * side; BENCH_SIZES_ONLY=1 prints only those.
 *
 * The plots are written straight into the plots schema (a read benchmark: 8,100 plots cover water too,
 * which no buyer could claim).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { plotIdFor } from '@pixel-atlas/contracts/plot-id';
import { decodePlotListCompact, type PlotListCompact } from '@pixel-atlas/contracts/plot-list-compact-codec';
import type { FastifyInstance } from 'fastify';
import { startWorld } from '@pixel-atlas/test-stack/world';
import { autocannon, baseUrl, fmt, table } from './support.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** BENCH_RANDOM_IDS=1: the plots get random (version 4) ids, as plots claimed before `plotIdFor` have: the baseline. */
const RANDOM_IDS = process.env.BENCH_RANDOM_IDS === '1';
/** BENCH_SIZES_ONLY=1: only the bytes on the wire, no load runs. */
const SIZES_ONLY = process.env.BENCH_SIZES_ONLY === '1';

type Encoding = 'identity' | 'gzip' | 'br';
type WireSizes = Record<Encoding, number>;

/** The body's bytes exactly as sent for one accept-encoding (fetch would decode them). */
function wireBytes(url: string, encoding: Encoding): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      if (res.headers['content-encoding'] !== (encoding === 'identity' ? undefined : encoding))
        reject(new Error(`${url} answered ${res.headers['content-encoding']} to ${encoding}`));
      let n = 0;
      res.on('data', (chunk: Buffer) => (n += chunk.length));
      res.on('end', () => resolve(n));
    })
      .on('error', reject)
      .end();
  });
}

const world = await startWorld({ listen: true, plotsEnv: { LOG_LEVEL: 'warn' } });
const webDir = await mkdtemp(path.join(os.tmpdir(), 'pa-bench-web-'));
let gateway: FastifyInstance | null = null;
try {
  await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>bench</title>');
  // The gateway registers its static files at start (wildcard: false): the file must exist then; its bytes are replaced per scenario.
  await writeFile(path.join(webDir, 'plots.json'), '[]');
  // The gateway, in-process like the others, loaded at run time (each service types FastifyInstance.db its own way).
  const gatewaySrc = path.resolve(import.meta.dirname, '../../gateway/src');
  const gatewayApp: { buildApp: (env: unknown) => Promise<FastifyInstance> } = await import(
    pathToFileURL(path.join(gatewaySrc, 'app.ts')).href
  );
  const gatewayEnv: { loadEnv: (source: Record<string, string>) => unknown } = await import(
    pathToFileURL(path.join(gatewaySrc, 'env.ts')).href
  );
  gateway = await gatewayApp.buildApp(
    gatewayEnv.loadEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: world.db.url,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      NATS_STREAM: world.stream.stream,
      NATS_SUBJECT_PREFIX: world.stream.subjectPrefix,
      INTERNAL_TOKEN: 'test-internal-token-0123456789',
      CONTACT_URL: 'http://127.0.0.1:9',
      PLOTS_URL: baseUrl(world.plots),
      WEB_DIST_DIR: webDir,
      RATE_LIMIT_PER_MINUTE: '100000000',
    }),
  );
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  const direct = baseUrl(world.plots);
  const viaGateway = baseUrl(gateway);

  const rows: Array<Record<string, string | number>> = [];
  const wire: Array<Record<string, string>> = [];
  for (const count of [2000, 8100]) {
    await world.db.query('TRUNCATE plots.plots CASCADE');
    // 1×1 plots row by row, with the ids claims give them (plotIdFor: their time and place); names, messages and
    // links of realistic length.
    const claimedAt = Array.from({ length: count }, (_, i) => Date.now() - i * 1000);
    await world.db.query(
      `INSERT INTO plots.plots (id, zone, tier, x, y, size, display_name, message, link, stripe_session_id, created_at)
       SELECT ($2::uuid[])[i + 1], (ARRAY['nexus','startup','creator','meme'])[1 + i % 4], 'basic', i % 90, i / 90, 1,
              'Creator ' || i, left('Building tools for makers, one pixel at a time. Plot number ' || i || ' says hello to the whole atlas!', 120),
              'https://creator-' || i || '.example.com/portfolio', 'cs_bench_' || i, ($3::timestamptz[])[i + 1]
         FROM generate_series(0, $1::int - 1) AS i`,
      [
        count,
        claimedAt.map((ms, i) => (RANDOM_IDS ? randomUUID() : plotIdFor(ms, i % 90, Math.floor(i / 90)))),
        claimedAt.map((ms) => new Date(ms).toISOString()),
      ],
    );
    await world.db.query(
      `INSERT INTO plots.footprints (id, x, y, size, kind, plot_id) SELECT gen_random_uuid(), x, y, 1, 'plot', id FROM plots.plots`,
    );
    world.plots.plotList.invalidate();

    const identity = await fetch(`${direct}/api/plots`, { headers: { 'accept-encoding': 'identity' } });
    const body = Buffer.from(await identity.arrayBuffer());
    const listed = JSON.parse(body.toString()) as unknown[];
    if (listed.length !== count) throw new Error(`expected ${count} plots, listed ${listed.length}`);
    const compactList = decodePlotListCompact((await (await fetch(`${direct}/api/plots?format=compact`)).json()) as PlotListCompact);
    if (JSON.stringify(compactList) !== body.toString()) throw new Error('the compact list does not decode to the spec list');
    const etag = identity.headers.get('etag')!;
    // Bytes on the wire, through the gateway as a browser gets them: the spec's list beside the compact one.
    const wireSizes = async (url: string): Promise<WireSizes> => ({
      identity: await wireBytes(url, 'identity'),
      gzip: await wireBytes(url, 'gzip'),
      br: await wireBytes(url, 'br'),
    });
    const spec = await wireSizes(`${viaGateway}/api/plots`);
    const compact = await wireSizes(`${viaGateway}/api/plots?format=compact`);
    const bytes = (size: WireSizes, encoding: Encoding) => `${fmt(size[encoding])} (${fmt(size[encoding] / 1024, 1)} KB)`;
    for (const [shape, size] of [
      ['spec', spec],
      ['compact', compact],
    ] as const) {
      wire.push({ plots: fmt(count), shape, identity: bytes(size, 'identity'), gzip: bytes(size, 'gzip'), br: bytes(size, 'br') });
    }
    const share = (encoding: Encoding) => `${fmt((compact[encoding] / spec[encoding]) * 100, 1)}%`;
    wire.push({ plots: fmt(count), shape: 'compact / spec', identity: share('identity'), gzip: share('gzip'), br: share('br') });
    if (SIZES_ONLY) continue;
    await writeFile(path.join(webDir, 'plots.json'), body);

    const runs: Array<[string, string, Record<string, string>, Encoding | '304']> = [
      ['direct', `${direct}/api/plots`, { 'accept-encoding': 'br' }, 'br'],
      ['direct', `${direct}/api/plots`, { 'accept-encoding': 'gzip' }, 'gzip'],
      ['direct', `${direct}/api/plots`, {}, 'identity'],
      ['direct', `${direct}/api/plots`, { 'if-none-match': etag, 'accept-encoding': 'br' }, '304'],
      ['gateway', `${viaGateway}/api/plots`, { 'accept-encoding': 'br' }, 'br'],
      ['gateway', `${viaGateway}/api/plots`, {}, 'identity'],
      ['gateway', `${viaGateway}/api/plots`, { 'if-none-match': etag, 'accept-encoding': 'br' }, '304'],
      ['gateway static file (same bytes)', `${viaGateway}/plots.json`, {}, 'identity'],
    ];
    const measured: Array<{ row: Record<string, string | number>; rps: number }> = [];
    let staticRps = 0;
    for (const [where, url, headers, encoding] of runs) {
      const result = await autocannon(url, { connections: CONNECTIONS, durationSeconds: DURATION, headers });
      if (where === 'gateway static file (same bytes)') staticRps = result.requestsPerSecond;
      const row = {
        plots: fmt(count),
        via: where,
        encoding,
        'response bytes': fmt(encoding === '304' ? 0 : spec[encoding]),
        'req/s': fmt(result.requestsPerSecond),
        'p99 ms': fmt(result.p99),
        'vs static': '',
        errors: result.errors + result.non2xx - (encoding === '304' ? result.non2xx : 0),
      };
      rows.push(row);
      measured.push({ row, rps: result.requestsPerSecond });
    }
    for (const { row, rps } of measured) row['vs static'] = `${fmt(rps / staticRps, 2)}×`;
    console.log(`\n${fmt(count)} plots: ${fmt(spec.identity)} B JSON, ${fmt(spec.gzip)} B gzip, ${fmt(spec.br)} B brotli`);
  }
  console.log(`\nGET /api/plots on the wire through the gateway: the spec's list and ?format=compact, same plots, same run\n`);
  console.log(table(wire));
  if (!SIZES_ONLY)
    console.log(
      `\nGET /api/plots — ${CONNECTIONS} connections, ${DURATION} s per run, ${os.cpus().length} CPUs shared by load generator, services and PostgreSQL\n`,
    );
  if (!SIZES_ONLY) console.log(table(rows));
} finally {
  await gateway?.close();
  await world.close();
  await rm(webDir, { recursive: true, force: true });
}
