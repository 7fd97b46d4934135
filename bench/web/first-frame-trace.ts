/**
 * A page loaded in Debian's Chromium on a 412×823 phone viewport with the CPU throttled 4× through CDP (no network
 * throttling): the main thread's tasks over 50 ms, each with what it was (script evaluation, a function of which file,
 * an animation frame, a timer, parsing, style/layout), and the scripts the page had evaluated when the map canvas
 * drew its first frame (the engine writes `data-zoom` on the canvas with that frame), with their brotli size from
 * the build. Deterministic where Lighthouse is not: a task's count and rough length under throttling, and the bytes.
 * `BENCH_WEB_TRACE=N npm run bench:web` runs it N times per page (with `BENCH_WEB_RUNS=0`, without Lighthouse).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zc } from 'node:zlib';
import { launchChromium } from '../../e2e/support/chromium.ts';

const LONG_TASK_MS = 50;
/** How long after the load event the trace goes on: the map's first frame and first paint (tiles under the view, labels). */
const SETTLE_MS = 10_000;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; frame?: string; documentLoaderURL?: string } };
}

interface LongTask {
  /** ms after navigation start. */
  start: number;
  duration: number;
  /** The task's largest parts, "kind file" → ms. */
  parts: string;
  beforeFirstFrame: boolean;
}

interface FirstFrameTrace {
  /** When the map layout's answer was in (the first frame cannot come before it). */
  layoutMs: number | null;
  /** When the first terrain chunk was drawn (the first frame may be the sea alone, before the data). */
  terrainMs: number | null;
  firstFrameMs: number | null;
  longTasks: LongTask[];
  scriptsBeforeFirstFrame: Array<{ file: string; br: number }>;
  brBeforeFirstFrame: number;
}

const fileOf = (url: string | undefined) => (url ? (url.split('?')[0]!.split('/').pop() ?? url) : '');

/** What a top-level task spent its time on: the direct children that name a script or a kind of work. */
function describeTask(task: TraceEvent, children: TraceEvent[]): string {
  const parts = new Map<string, number>();
  for (const e of children) {
    const url = e.args?.data?.url;
    let key: string;
    if (e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule') key = `evaluate ${fileOf(url)}`;
    else if (e.name === 'FunctionCall') key = `call ${fileOf(url)}${e.args?.data?.functionName ? `:${e.args.data.functionName}` : ''}`;
    else if (e.name === 'FireAnimationFrame') key = 'animation frame';
    else if (e.name === 'TimerFire') key = 'timer';
    else if (e.name === 'EventDispatch') key = 'event';
    else if (e.name === 'ParseHTML') key = 'parse HTML';
    else if (e.name === 'UpdateLayoutTree' || e.name === 'Layout') key = 'style/layout';
    else if (e.name === 'v8.compile' || e.name === 'v8.compileModule') key = `compile ${fileOf(url)}`;
    else continue;
    parts.set(key, (parts.get(key) ?? 0) + (e.dur ?? 0) / 1000);
  }
  const top = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return top.length ? top.map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(', ') : `(${task.name})`;
}

function longTasksOf(
  events: TraceEvent[],
  main: { pid: number; tid: number; navigationStart: number },
  firstFrameTs: number | null,
): LongTask[] {
  const { navigationStart } = main;
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.ts >= navigationStart);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) / 1000 > LONG_TASK_MS);
  return tasks.map((task) => {
    const end = task.ts + (task.dur ?? 0);
    // Direct parts: events inside the task that are not inside another listed part of it.
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && e.name !== 'RunTask');
    const kinds = new Set([
      'EvaluateScript',
      'v8.evaluateModule',
      'FunctionCall',
      'FireAnimationFrame',
      'TimerFire',
      'EventDispatch',
      'ParseHTML',
      'UpdateLayoutTree',
      'Layout',
      'v8.compile',
      'v8.compileModule',
    ]);
    const named = inside.filter((e) => kinds.has(e.name));
    const outer = named.filter(
      (e) => !named.some((o) => o !== e && o.ts <= e.ts && o.ts + (o.dur ?? 0) >= e.ts + (e.dur ?? 0) && (o.dur ?? 0) > (e.dur ?? 0)),
    );
    return {
      start: (task.ts - navigationStart) / 1000,
      duration: (task.dur ?? 0) / 1000,
      parts: describeTask(task, outer),
      beforeFirstFrame: firstFrameTs !== null && task.ts < firstFrameTs,
    };
  });
}

const brCache = new Map<string, number>();
function brOf(distDir: string, file: string): number {
  const cached = brCache.get(file);
  if (cached !== undefined) return cached;
  const full = path.join(distDir, 'assets', file);
  const data = existsSync(full) ? readFileSync(full) : Buffer.alloc(0);
  const br = brotliCompressSync(data, { params: { [zc.BROTLI_PARAM_QUALITY]: 11 } }).length;
  brCache.set(file, br);
  return br;
}

export async function traceFirstFrame(url: string, distDir: string): Promise<FirstFrameTrace> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    // The first frame: the engine publishes its camera on the canvas as it draws (publish-camera.ts).
    await page.addInitScript(() => {
      const w = window as unknown as { __paFirstFrame?: number; __paFirstTerrain?: number };
      // The first terrain on screen: the first chunk bitmap (from the worker) drawn anywhere.
      const drawImage = CanvasRenderingContext2D.prototype.drawImage;
      CanvasRenderingContext2D.prototype.drawImage = function (this: CanvasRenderingContext2D, ...args: unknown[]) {
        if (w.__paFirstTerrain === undefined && args[0] instanceof ImageBitmap) w.__paFirstTerrain = performance.now();
        return (drawImage as (...a: unknown[]) => void).apply(this, args);
      };
      new MutationObserver((records, observer) => {
        if (records.some((r) => (r.target as Element).tagName === 'CANVAS')) {
          w.__paFirstFrame = performance.now();
          observer.disconnect();
        }
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-zoom'] });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await browser.startTracing(page, {
      categories: [
        ...(process.env.BENCH_WEB_TRACE_SAVE ? ['disabled-by-default-v8.cpu_profiler'] : []),
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8.execute',
        'blink.user_timing',
        '__metadata',
      ],
    });
    await page.goto(url, { waitUntil: 'load' });
    // A fixed wait, not waitForFunction: Playwright's polling script would be a task of its own in the trace.
    await page.waitForTimeout(SETTLE_MS);
    const timing = await page.evaluate(() => ({
      firstFrame: (window as unknown as { __paFirstFrame?: number }).__paFirstFrame ?? null,
      firstTerrain: (window as unknown as { __paFirstTerrain?: number }).__paFirstTerrain ?? null,
      timeOrigin: performance.timeOrigin,
      layout:
        performance.getEntriesByType('resource').find((e): e is PerformanceResourceTiming => e.name.includes('/api/map-layout'))
          ?.responseEnd ?? null,
      scripts: performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith('.js'))
        .map((e) => ({ name: e.name, end: (e as PerformanceResourceTiming).responseEnd })),
    }));
    const raw = await browser.stopTracing();
    // BENCH_WEB_TRACE_SAVE=<file>: the last trace, for DevTools' Performance panel.
    if (process.env.BENCH_WEB_TRACE_SAVE) writeFileSync(process.env.BENCH_WEB_TRACE_SAVE, raw);
    const trace = JSON.parse(raw.toString('utf8')) as { traceEvents: TraceEvent[] };
    const events = trace.traceEvents;
    // The page's navigation (its document's URL; the trace clock is in µs) names the renderer's main thread.
    const nav =
      events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === url) ??
      events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'));
    if (!nav) throw new Error(`no navigationStart of ${url} in the trace`);
    const main = { pid: nav.pid, tid: nav.tid, navigationStart: nav.ts };
    const firstFrameTs = timing.firstFrame === null ? null : nav.ts + timing.firstFrame * 1000;
    const before = timing.scripts.filter((s) => timing.firstFrame !== null && s.end <= timing.firstFrame && !/worker/i.test(s.name));
    const scriptsBeforeFirstFrame = before.map((s) => ({ file: fileOf(s.name), br: brOf(distDir, fileOf(s.name)) }));
    return {
      layoutMs: timing.layout,
      terrainMs: timing.firstTerrain,
      firstFrameMs: timing.firstFrame,
      longTasks: longTasksOf(events, main, firstFrameTs),
      scriptsBeforeFirstFrame,
      brBeforeFirstFrame: scriptsBeforeFirstFrame.reduce((sum, s) => sum + s.br, 0),
    };
  } finally {
    await browser.close();
  }
}

export function printFirstFrameTrace(label: string, t: FirstFrameTrace, say: (m: string) => void): void {
  const total = t.longTasks.reduce((s, x) => s + x.duration, 0);
  say(
    `${label} (4× CPU): map layout in at ${t.layoutMs?.toFixed(0) ?? '—'} ms, first frame at ${t.firstFrameMs?.toFixed(0) ?? '—'} ms, first terrain at ${t.terrainMs?.toFixed(0) ?? '—'} ms; ${t.scriptsBeforeFirstFrame.length} scripts evaluated before it, ` +
      `${(t.brBeforeFirstFrame / 1024).toFixed(1)} KB br; ${t.longTasks.length} tasks > ${LONG_TASK_MS} ms (${total.toFixed(0)} ms in all)`,
  );
  for (const s of t.scriptsBeforeFirstFrame) say(`    script ${s.file} ${(s.br / 1024).toFixed(1)} KB br`);
  for (const task of t.longTasks)
    say(
      `    task at ${task.start.toFixed(0)} ms: ${task.duration.toFixed(0)} ms${task.beforeFirstFrame ? ' (before first frame)' : ''} — ${task.parts}`,
    );
}
