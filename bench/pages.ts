/**
 * `npm run bench:pages` — the pages a crowd and a crawler open, through the gateway, against the floor: a bare
 * `node:http` server in its own process answering the same status, headers and bytes (fetched once from the gateway)
 * from memory. Then the crowd: many visitors on one plot page while a purchase and `GET /api/plots` are timed.
 *
 * Every service is a real process (startProcessStack), the gateway in front serving the built web app (web/dist and
 * web/dist-server: `npm run build -w @pixel-atlas/web`). Plots are written straight into the plots schema (1×1, on
 * every tile but the few kept free for the purchases), in the map's regions; plots restarts to read them fresh.
 *
 * Knobs: BENCH_PLOTS (8100: tiles covered, less BENCH_PURCHASES × 2 kept free), BENCH_SECONDS (10 per run),
 * BENCH_CONNECTIONS (32), BENCH_ONLY=pages|crowd, BENCH_CROWD_VISITORS (2000), BENCH_CROWD_SECONDS (30),
 * BENCH_CROWD_ADDRESSES (500), BENCH_CROWD_THINK_MS (2000: each visitor reloads every 1–3 s), BENCH_PURCHASES (10 per
 * phase), BENCH_LIST_REQUESTS (200 per phase).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { plotIdFor } from '@pixel-atlas/contracts/plot-id';
import { startProcessStack, type ProcessStack } from '@pixel-atlas/test-stack/process-stack';
import { fmt, fmtInt, percentile, table } from './map/stats.ts';
import type { FloorAnswer } from './pages-floor.ts';
import type { CrowdPlan, CrowdResult } from './pages-crowd.ts';

const env = process.env;
const PLOTS = Number(env.BENCH_PLOTS ?? 8100);
const SECONDS = Number(env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 32);
const ONLY = env.BENCH_ONLY;
const CROWD_VISITORS = Number(env.BENCH_CROWD_VISITORS ?? 2000);
const CROWD_SECONDS = Number(env.BENCH_CROWD_SECONDS ?? 30);
const CROWD_ADDRESSES = Number(env.BENCH_CROWD_ADDRESSES ?? 500);
const CROWD_THINK_MS = Number(env.BENCH_CROWD_THINK_MS ?? 2000);
const PURCHASES = Number(env.BENCH_PURCHASES ?? 10);
const LIST_REQUESTS = Number(env.BENCH_LIST_REQUESTS ?? 200);

const repoRoot = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const ONE_PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One request with Node's http client: the body exactly as sent (fetch would decode it). */
function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; agent?: http.Agent } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: options.agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = String(value);
        resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
      response.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${url}`)));
    req.end(options.body);
  });
}

interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** autocannon in its own process (a load generator sharing a server's event loop would measure itself). */
async function autocannon(url: string, headers: Record<string, string>, seconds: number): Promise<LoadResult> {
  const args = [require.resolve('autocannon/autocannon.js'), '-j', '-n', '-c', String(CONNECTIONS), '-d', String(seconds)];
  for (const [key, value] of Object.entries(headers)) args.push('-H', `${key}=${value}`);
  const child = spawn(process.execPath, [...args, url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new Error(`autocannon exited ${code}: ${err}`);
  const result = JSON.parse(out);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** A child running a bench script with tsx; resolves with it once it printed its first JSON line. */
async function startScript(script: string, args: string[]): Promise<{ child: ChildProcess; first: unknown; lines: AsyncIterator<string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, script), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error(`${script} ended before it started`);
  return { child, first: JSON.parse(first.value), lines };
}

/** The whole grid but `free` land tiles (kept for purchases), as 1×1 plots in the map's regions; returns one land plot. */
async function seedPlots(stack: ProcessStack, free: Array<{ x: number; y: number }>) {
  const tiles = await stack.db.query<{ x: number; y: number; is_land: boolean; zone_name: string }>(
    'SELECT x, y, is_land, zone_name FROM map.map_tiles ORDER BY y, x',
  );
  const kept = new Set(free.map((t) => `${t.x},${t.y}`));
  const chosen = tiles.filter((t) => !kept.has(`${t.x},${t.y}`)).slice(0, PLOTS);
  const now = Date.now();
  const rows = chosen.map((t, i) => ({
    id: plotIdFor(now - i * 1000, t.x, t.y),
    x: t.x,
    y: t.y,
    region: t.is_land ? t.zone_name : null,
    createdAt: new Date(now - i * 1000).toISOString(),
  }));
  await stack.db.query(
    `INSERT INTO plots.plots (id, zone, tier, x, y, size, display_name, message, link, stripe_session_id, created_at, region_name)
     SELECT t.id, (ARRAY['nexus','startup','creator','meme'])[1 + (t.i % 4)::int], 'basic', t.x, t.y, 1, 'Creator ' || t.i,
            left('Building tools for makers, one pixel at a time. Plot number ' || t.i || ' says hello to the whole atlas!', 120),
            'https://creator-' || t.i || '.example.com/portfolio', 'cs_bench_' || t.i, t.created, t.region
       FROM unnest($1::uuid[], $2::int[], $3::int[], $4::text[], $5::timestamptz[]) WITH ORDINALITY AS t(id, x, y, region, created, i)`,
    [rows.map((r) => r.id), rows.map((r) => r.x), rows.map((r) => r.y), rows.map((r) => r.region), rows.map((r) => r.createdAt)],
  );
  await stack.db.query(
    `INSERT INTO plots.footprints (id, x, y, size, kind, plot_id) SELECT gen_random_uuid(), x, y, 1, 'plot', id FROM plots.plots`,
  );
  // The middle of the land plots: a page in a full region, as a shared link would be.
  const land = rows.filter((r) => r.region);
  const middle = land[Math.floor(land.length / 2)]!;
  return { count: rows.length, plot: { ...middle, name: `Creator ${rows.indexOf(middle) + 1}` } };
}

async function pagesTable(stack: ProcessStack, pages: Array<{ label: string; path: string; headers: Record<string, string> }>) {
  const answers: Array<FloorAnswer & { label: string; requestHeaders: Record<string, string> }> = [];
  for (const page of pages) {
    const answer = await request(`${stack.url}${page.path}`, { headers: page.headers });
    // Older code (the baseline) may not serve a path at all: its row says so.
    if (answer.status !== 200) {
      console.log(`  ${page.label} (${page.path}): ${answer.status}, not measured`);
      continue;
    }
    answers.push({
      label: page.label,
      path: page.path,
      status: answer.status,
      headers: answer.headers,
      body: answer.body.toString('base64'),
      requestHeaders: page.headers,
    });
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pa-bench-pages-'));
  const file = path.join(dir, 'answers.json');
  await writeFile(file, JSON.stringify(answers));
  const floor = await startScript('pages-floor.ts', [file]);
  const floorUrl = `http://127.0.0.1:${(floor.first as { port: number }).port}`;
  const rows: Array<Array<string | number>> = [
    ['path', 'coding', 'gateway req/s', 'floor req/s', 'ratio', 'bytes', 'gateway p99 ms', 'floor p99 ms', 'errors'],
  ];
  try {
    for (const answer of answers) {
      // Warm-up: JIT, connection pools, the document built once.
      await autocannon(`${stack.url}${answer.path}`, answer.requestHeaders, 2);
      const gateway = await autocannon(`${stack.url}${answer.path}`, answer.requestHeaders, SECONDS);
      const bare = await autocannon(`${floorUrl}${answer.path}`, answer.requestHeaders, SECONDS);
      rows.push([
        answer.label,
        answer.headers['content-encoding'] ?? 'identity',
        fmtInt(gateway.requestsPerSecond),
        fmtInt(bare.requestsPerSecond),
        `${fmt(gateway.requestsPerSecond / bare.requestsPerSecond)}×`,
        fmtInt(Buffer.from(answer.body, 'base64').length),
        fmtInt(gateway.p99),
        fmtInt(bare.p99),
        gateway.errors + bare.errors,
      ]);
      console.log(`  ${answer.label}: ${fmtInt(gateway.requestsPerSecond)} vs ${fmtInt(bare.requestsPerSecond)} req/s`);
    }
  } finally {
    floor.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
  console.log(`\nPages — ${CONNECTIONS} connections, ${SECONDS} s per run, autocannon in its own process, floor in its own process\n`);
  console.log(table(rows));
}

/** Checkout, the test checkout's Pay and the claim, from an address of its own (per-address hold limits): its ms. */
async function purchase(base: string, tile: { x: number; y: number }, index: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.2.0.${index + 1}` });
  const json = { 'content-type': 'application/json', 'user-agent': BROWSER };
  const started = performance.now();
  try {
    const checkout = await request(`${base}/api/create-checkout-session`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ tier: 'basic', ...tile }),
      agent,
    });
    if (checkout.status !== 200) throw new Error(`checkout: ${checkout.status} ${checkout.body}`);
    const { sessionId } = JSON.parse(checkout.body.toString()) as { sessionId: string };
    const paid = await request(`${base}/api/test-checkout/${sessionId}/pay`, { method: 'POST', headers: { 'user-agent': BROWSER }, agent });
    if (paid.status !== 303) throw new Error(`pay: ${paid.status} ${paid.body}`);
    const claim = await request(`${base}/api/claim-plot`, {
      method: 'POST',
      headers: json,
      agent,
      body: JSON.stringify({
        display_name: `Bench Buyer ${index}`,
        message: 'Bought while the crowd was here.',
        link: 'https://buyer.example.com/',
        zone: 'nexus',
        ...tile,
        stripeSessionId: sessionId,
        tier: 'basic',
        avatar_url: ONE_PIXEL_PNG,
      }),
    });
    if (claim.status !== 201) throw new Error(`claim: ${claim.status} ${claim.body}`);
    return performance.now() - started;
  } finally {
    agent.destroy();
  }
}

/** Runs `work`, timing it; a failure (an error status, a 30 s timeout) is counted and its time kept as a sample. */
async function timed(samples: { ms: number[]; errors: number }, work: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  try {
    await work();
  } catch (error) {
    samples.errors += 1;
    console.log(`  failed: ${(error as Error).message.slice(0, 160)}`);
  }
  samples.ms.push(performance.now() - started);
}

/** Purchases one after another, then GET /api/plots (br) one after another on one keep-alive connection: ms each. */
async function timedWork(base: string, tiles: Array<{ x: number; y: number }>, firstIndex: number) {
  const purchases = { ms: [] as number[], errors: 0 };
  for (const [i, tile] of tiles.entries()) await timed(purchases, () => purchase(base, tile, firstIndex + i));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.3.0.1' });
  const lists = { ms: [] as number[], errors: 0 };
  for (let i = 0; i < LIST_REQUESTS; i++) {
    await timed(lists, async () => {
      const answer = await request(`${base}/api/plots`, { headers: { 'accept-encoding': 'br', 'user-agent': BROWSER }, agent });
      if (answer.status !== 200) throw new Error(`GET /api/plots: ${answer.status}`);
    });
  }
  agent.destroy();
  return { purchases, lists };
}

async function crowd(stack: ProcessStack, plotPath: string, freeTiles: Array<{ x: number; y: number }>) {
  const idle = await timedWork(stack.url, freeTiles.slice(0, PURCHASES), 0);
  const plan: CrowdPlan = {
    port: stack.gateway.port,
    path: plotPath,
    headers: { 'accept-encoding': 'br, gzip', 'user-agent': BROWSER },
    visitors: CROWD_VISITORS,
    addresses: CROWD_ADDRESSES,
    seconds: CROWD_SECONDS,
    thinkMs: CROWD_THINK_MS,
  };
  const visitors = await startScript('pages-crowd.ts', [JSON.stringify(plan)]);
  const crowdEnds = Date.now() + CROWD_SECONDS * 1000 - CROWD_THINK_MS;
  const during = await timedWork(stack.url, freeTiles.slice(PURCHASES, PURCHASES * 2), PURCHASES).catch((error: unknown) => {
    visitors.child.kill('SIGTERM');
    throw error;
  });
  const crowdOutlasted = Date.now() < crowdEnds;
  const last = await visitors.lines.next();
  if (last.done) throw new Error('the crowd ended without a result');
  const result = JSON.parse(last.value) as CrowdResult;

  console.log(
    `\nThe crowd — ${fmtInt(CROWD_VISITORS)} visitors on ${plotPath} for ${CROWD_SECONDS} s from ${CROWD_ADDRESSES} loopback addresses, ` +
      `each reloading every ${fmt(CROWD_THINK_MS / 2000, 1)}–${fmt((CROWD_THINK_MS * 1.5) / 1000, 1)} s (one keep-alive connection each)\n`,
  );
  console.log(
    table([
      ['requests', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors'],
      [
        fmtInt(result.requests),
        fmtInt(result.requestsPerSecond),
        fmt(result.p50, 1),
        fmt(result.p90, 1),
        fmt(result.p99, 1),
        fmt(result.max, 1),
        result.errors,
      ],
    ]),
  );
  if (result.errors) console.log(`errors: ${JSON.stringify(result.failures)}`);
  const row = (label: string, idleSamples: { ms: number[]; errors: number }, crowdSamples: { ms: number[]; errors: number }) => {
    const [a, b] = [idleSamples.ms, crowdSamples.ms];
    return [
      label,
      a.length,
      fmt(percentile(a, 50), 1),
      fmt(percentile(a, 99), 1),
      fmt(percentile(b, 50), 1),
      fmt(percentile(b, 99), 1),
      `${fmt(percentile(b, 99) / percentile(a, 99))}×`,
      `${idleSamples.errors} / ${crowdSamples.errors}`,
    ];
  };
  console.log(
    `\nTimed beside it, one after another: ${crowdOutlasted ? 'all while the crowd was on' : 'NOT all during the crowd (lengthen BENCH_CROWD_SECONDS)'}\n`,
  );
  console.log(
    table([
      ['what', 'n', 'idle p50 ms', 'idle p99 ms', 'crowd p50 ms', 'crowd p99 ms', 'p99 ratio', 'errors idle / crowd'],
      row('purchase (checkout, pay, claim)', idle.purchases, during.purchases),
      row('GET /api/plots (br)', idle.lists, during.lists),
    ]),
  );
}

async function main() {
  const [load1, load5] = os.loadavg();
  console.log(
    `bench:pages on ${os.cpus().length} CPU(s), Node ${process.version}, load average ${fmt(load1!)} (1 min), ${fmt(load5!)} (5 min)\n`,
  );
  const stack = await startProcessStack({
    readyTimeoutMs: 240_000,
    env: { LOG_LEVEL: 'warn' },
    // Neither the per-client rate limit nor the requests-per-connection bound is what is measured: autocannon keeps
    // writing on a connection the gateway closes after its 1,000th request, and would count the 503s Node answers then.
    serviceEnv: { gateway: { RATE_LIMIT_PER_MINUTE: '100000000', HTTP_MAX_REQUESTS_PER_SOCKET: '100000000' } },
  });
  try {
    // Land tiles far apart from each other, free for the purchases (two phases).
    const free = [...stack.land]
      .map((key) => key.split(',').map(Number) as [number, number])
      .filter(([x, y]) => x % 7 === 3 && y % 7 === 3)
      .slice(0, PURCHASES * 2)
      .map(([x, y]) => ({ x, y }));
    const seeded = await seedPlots(stack, free);
    // A fresh plots process reads them (its caches began empty of them).
    await stack.restart('plots');
    const listed = JSON.parse((await request(`${stack.url}/api/plots`)).body.toString()) as unknown[];
    console.log(
      `${fmtInt(seeded.count)} plots seeded (${fmtInt(listed.length)} listed), ${free.length} land tiles kept free for purchases\n`,
    );

    const plotPath = `/plot/${seeded.plot.id}`;
    const page = await request(`${stack.url}${plotPath}`, { headers: { 'user-agent': BROWSER } });
    const html = page.body.toString();
    const ogImage = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
    if (!ogImage) throw new Error(`${plotPath} has no og:image`);
    // The region page the plot page links, as a crawler finds it (code without region pages links none).
    const regionPath = /<a [^>]*href="(\/regions\/[a-z0-9-]+)"/.exec(html)?.[1] ?? '/regions/none';
    const browser = { 'user-agent': BROWSER, 'accept-encoding': 'br, gzip' };
    if (ONLY !== 'crowd')
      await pagesTable(stack, [
        { label: '/plot/:id', path: plotPath, headers: { 'user-agent': BROWSER, 'accept-encoding': 'br' } },
        { label: 'its og:image', path: new URL(ogImage, stack.url).pathname + new URL(ogImage, stack.url).search, headers: browser },
        { label: '/user/:name', path: `/user/${encodeURIComponent(seeded.plot.name)}`, headers: browser },
        { label: '/regions/:slug', path: regionPath, headers: browser },
        { label: '/sitemap.xml', path: '/sitemap.xml', headers: browser },
        // The index names the files a crawler then reads: the plots file is where the bytes are.
        { label: '/sitemaps/plots-1.xml', path: '/sitemaps/plots-1.xml', headers: browser },
      ]);
    if (ONLY !== 'pages') await crowd(stack, plotPath, free);
  } finally {
    await stack.stop();
  }
}

await main();
