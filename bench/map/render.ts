/**
 * Render benchmark: the map engine in headless Debian chromium on a 1280×800 canvas with a real
 * generated layout and 2,000 synthetic plots, 5 s of scripted pan and zoom per view, next to the lower
 * bound (one drawImage of the pre-rendered full view per frame) measured in the same page.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { GRID_SIZE, TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import type { MapTile } from '@pixel-atlas/contracts/map';
import type { Region } from '@pixel-atlas/contracts/regions';
import { launchChromium } from '../../e2e/support/chromium.ts';
import { scenarioPlots, type PlotScenario } from './plots.ts';
import type { PhaseInput, PhaseResult, SetupResult } from './protocol.ts';
import { fmt, summary, table } from './stats.ts';

export const VIEWPORT = { width: 1280, height: 800 };
/** The whole 90×90 world fits the viewport exactly (4,320 world px into 800 px). */
export const FIT_ZOOM = Math.min(VIEWPORT.width, VIEWPORT.height) / (GRID_SIZE * TILE_SIZE_PX);
const FRAME_MS = 1000 / 60;
/** An interval between rAF callbacks longer than this means at least one frame was dropped. */
export const DROPPED_FRAME_MS = 1.5 * FRAME_MS;
/** Issue target: every view's draw+raster p95 within this factor of the lower bound. */
export const TARGET_RATIO = 1.5;

export interface RenderOptions {
  layout: { tiles: MapTile[]; regions: Region[] };
  /** Plot sets measured one after the other in the same page (`BENCH_PLOTS`). */
  scenarios: PlotScenario[];
  durationMs: number;
  warmupMs: number;
  /** Registers what must be undone, in reverse order, however the run ends. */
  onCleanup: (label: string, undo: () => Promise<unknown>) => void;
}

export interface RenderRow {
  view: string;
  result: PhaseResult;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};

export async function buildPage(onCleanup: RenderOptions['onCleanup'], minify = true): Promise<string> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'pa-bench-map-'));
  onCleanup('page build dir', () => rm(tmp, { recursive: true, force: true }));
  const outDir = path.join(tmp, 'dist');
  const { build } = await import('vite');
  await build({
    root: path.join(import.meta.dirname, 'page'),
    configFile: false,
    logLevel: 'warn',
    cacheDir: path.join(tmp, 'vite-cache'),
    build: { outDir, emptyOutDir: true, reportCompressedSize: false, assetsInlineLimit: 0, minify },
  });
  return outDir;
}

async function sendFile(dir: string, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
  const file = path.join(dir, pathname === '/' ? 'index.html' : pathname);
  if (
    !file.startsWith(dir) ||
    !(await stat(file).then(
      (s) => s.isFile(),
      () => false,
    ))
  ) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    // Cross-origin isolation: performance.now() gets 5 µs resolution instead of 100 µs.
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-embedder-policy': 'require-corp',
  });
  createReadStream(file).pipe(response);
}

export async function serveStatic(dir: string, onCleanup: RenderOptions['onCleanup']): Promise<string> {
  // A path that does not decode is a bad request, not a crash of the benchmark.
  const server = http.createServer((request, response) => {
    sendFile(dir, request, response).catch(() => response.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup('page server', () => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/**
 * Runs the render benchmark and closes what it opened (browser, page server, build dir) before it
 * returns, so the API benchmark that follows has both cores; the caller's cleanup covers a crash or Ctrl-C.
 */
export async function runRenderBenchmark(options: RenderOptions): Promise<{ report: string; rows: RenderRow[] }> {
  const local: Array<{ label: string; undo: () => Promise<unknown> }> = [];
  const onCleanup: RenderOptions['onCleanup'] = (label, undo) => {
    let done: Promise<unknown> | null = null;
    const once = () => (done ??= undo());
    local.push({ label, undo: once });
    options.onCleanup(label, once);
  };
  try {
    return await measure(options, onCleanup);
  } finally {
    for (const step of local.reverse()) {
      await step.undo().catch((error: Error) => console.error(`closing ${step.label} failed: ${error.message}`));
    }
  }
}

async function measure(options: RenderOptions, onCleanup: RenderOptions['onCleanup']): Promise<{ report: string; rows: RenderRow[] }> {
  const buildStarted = performance.now();
  const dist = await buildPage(onCleanup);
  const url = await serveStatic(dist, onCleanup);
  const buildMs = performance.now() - buildStarted;

  const browser: Browser = await launchChromium();
  onCleanup('chromium', () => browser.close());
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(url);
  await page.waitForFunction(() => typeof window.bench === 'object');

  const sections: string[] = [];
  const rows: RenderRow[] = [];
  let setup: SetupResult | null = null;
  for (const scenario of options.scenarios) {
    const { plots, byTier } = scenarioPlots(options.layout.tiles, scenario);
    if (!setup) setup = await page.evaluate((input) => window.bench.setup(input), { layout: options.layout, plots });
    else await page.evaluate((input) => window.bench.usePlots(input), plots);
    const label = scenario === 'full' ? `fully claimed land (${plots.length} plots)` : `${plots.length} plots`;
    const scenarioRows = await measureScenario(page, options);
    if (pageErrors.length) throw new Error(`the benchmark page reported errors:\n${pageErrors.join('\n')}`);
    rows.push(...scenarioRows.map((row) => ({ ...row, view: `${row.view} [${label}]` })));
    sections.push(
      `— ${label}: ${Object.entries(byTier)
        .map(([tier, n]) => `${n} ${tier}`)
        .join(', ')}`,
      '',
      scenarioReport(scenarioRows),
      '',
    );
  }
  const info = setup!;
  const report = [
    `Render (headless chromium, ${info.viewport.width}×${info.viewport.height} CSS px, dpr ${info.viewport.dpr}; ` +
      `${info.avatars} data: PNG avatars of ${info.avatarBytes} chars; timer resolution ${info.timerResolutionUs} µs; ` +
      `${options.durationMs / 1000} s per view after ${options.warmupMs} ms warm-up; page built in ${fmt(buildMs / 1000, 1)} s)`,
    '',
    ...sections,
    'times in ms. draw = onFrameDrawn (JS time of the draw call: canvas commands recorded); raster = forcing the canvas to',
    `rasterise them (1-pixel getImageData right after the draw); dropped = rAF intervals > ${fmt(DROPPED_FRAME_MS, 1)} ms / intervals.`,
    `ratio = p95 of the view / p95 of the lower bound of the same plots (target: draw+raster ≤ ${fmt(TARGET_RATIO, 1)}× at every view).`,
  ].join('\n');
  return { report, rows };
}

// The page records one raster time for every draw time.
const totalMs = (result: PhaseResult) => result.drawMs.map((ms, i) => ms + result.rasterMs[i]!);

/** The three views and the lower bound (the full view of these plots, copied once, then one drawImage per frame). */
async function measureScenario(page: Page, options: RenderOptions): Promise<RenderRow[]> {
  const phase = (input: Omit<PhaseInput, 'warmupMs' | 'durationMs'>) =>
    page.evaluate((full) => window.bench.runPhase(full), { ...input, warmupMs: options.warmupMs, durationMs: options.durationMs });
  const zoomOctaves = 0.4;
  const rows: RenderRow[] = [];
  rows.push({
    view: `full map (fit, zoom ${fmt(FIT_ZOOM, 3)})`,
    result: await phase({ kind: 'engine', zoom: FIT_ZOOM, panTiles: 8, zoomOctaves }),
  });
  await page.evaluate((zoom) => window.bench.snapshotFullView(zoom), FIT_ZOOM);
  rows.push({ view: LOWER_BOUND, result: await phase({ kind: 'lowerBound', zoom: FIT_ZOOM, panTiles: 0, zoomOctaves: 0 }) });
  rows.push({ view: 'zoom 1.5', result: await phase({ kind: 'engine', zoom: 1.5, panTiles: 20, zoomOctaves }) });
  rows.push({ view: 'zoom 8', result: await phase({ kind: 'engine', zoom: 8, panTiles: 5, zoomOctaves }) });
  // The same pans at a resting zoom: what a drag costs, without the per-frame rescale of a zoom gesture.
  rows.push({ view: 'full map, pan only', result: await phase({ kind: 'engine', zoom: FIT_ZOOM, panTiles: 8, zoomOctaves: 0 }) });
  rows.push({ view: 'zoom 1.5, pan only', result: await phase({ kind: 'engine', zoom: 1.5, panTiles: 20, zoomOctaves: 0 }) });
  rows.push({ view: 'zoom 8, pan only', result: await phase({ kind: 'engine', zoom: 8, panTiles: 5, zoomOctaves: 0 }) });
  return rows;
}

const LOWER_BOUND = 'lower bound: 1 drawImage/frame';

function scenarioReport(rows: RenderRow[]): string {
  const header = [
    'view',
    'LOD',
    'zoom range',
    'frames',
    'draw med',
    'draw p95',
    'draw max',
    'raster p95',
    'draw+raster p95',
    'rAF p95',
    'dropped',
  ];
  const lines: Array<Array<string | number>> = [header];
  for (const { view, result } of rows) {
    const draw = summary(result.drawMs);
    const dropped = result.intervals.filter((ms) => ms > DROPPED_FRAME_MS).length;
    lines.push([
      view,
      result.levelsOfDetail.join('+') || '—',
      result.levelsOfDetail.length ? `${fmt(result.zoomRange[0], 3)}–${fmt(result.zoomRange[1], 3)}` : '—',
      result.drawMs.length,
      fmt(draw.median),
      fmt(draw.p95),
      fmt(draw.max),
      fmt(summary(result.rasterMs).p95),
      fmt(summary(totalMs(result)).p95),
      fmt(summary(result.intervals).p95, 1),
      `${dropped}/${result.intervals.length}`,
    ]);
  }
  const bound = rows.find((row) => row.view === LOWER_BOUND)!.result;
  const boundDraw = summary(bound.drawMs).p95;
  const boundTotal = summary(totalMs(bound)).p95;
  const ratios: Array<Array<string | number>> = [
    ['ratio vs lower bound', 'p95 draw', 'p95 draw+raster', 'draw+raster p95 ms', `≤ ${fmt(TARGET_RATIO, 1)}×`],
  ];
  for (const { view, result } of rows) {
    if (view === LOWER_BOUND) continue;
    const total = summary(totalMs(result)).p95;
    ratios.push([
      view,
      `${fmt(summary(result.drawMs).p95 / boundDraw)}×`,
      `${fmt(total / boundTotal)}×`,
      fmt(total),
      total / boundTotal <= TARGET_RATIO ? 'yes' : 'no',
    ]);
  }
  const missed = rows.filter((row) => row.result.missedDraws > 0).map((row) => `${row.view}: ${row.result.missedDraws}`);
  return [
    table(lines),
    '',
    table(ratios),
    '',
    missed.length
      ? `frames where the camera moved but the engine did not draw: ${missed.join(', ')}`
      : 'the engine drew on every scripted frame.',
  ].join('\n');
}
