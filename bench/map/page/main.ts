/**
 * The render benchmark page: the real map engine on a 1280×800 canvas, driven frame by frame.
 *
 * One requestAnimationFrame loop owns the clock. Each frame it (1) moves the camera along the script,
 * (2) runs the draw the engine asked for (the engine gets this loop as its `frames` stand-in, so its
 * draw lands in the same frame as the camera change), (3) forces the canvas to rasterise what was
 * recorded (a 1-pixel getImageData) and times that too. Node reads the figures with page.evaluate.
 */
import '@fontsource/press-start-2p/latin-400.css';
import { createMapEngine, type MapEngine, type MapPlot } from '../../../web/src/map/engine/engine.ts';
import type { PhaseInput, PhaseResult, SetupInput, SetupResult } from '../protocol.ts';

const canvas = document.getElementById('map') as HTMLCanvasElement;
const overlay = document.getElementById('overlay') as HTMLCanvasElement;

// --- the engine's frame source: callbacks wait for the loop below ---
let nextHandle = 0;
const pendingFrames = new Map<number, (time: number) => void>();
const frames = {
  requestFrame(callback: (time: number) => void) {
    pendingFrames.set(++nextHandle, callback);
    return nextHandle;
  },
  cancelFrame(handle: number) {
    pendingFrames.delete(handle);
  },
  now: () => performance.now(),
};

let engine: MapEngine | null = null;
let lastDrawMs: number | null = null;
let lowerBound: HTMLCanvasElement | null = null;
let allPlots: MapPlot[] = [];

interface RunningPhase {
  input: PhaseInput;
  startedAt: number;
  measuring: boolean;
  result: PhaseResult;
  lastTime: number | null;
  done: (result: PhaseResult) => void;
}
let phase: RunningPhase | null = null;

/** Figure-eight pan around the map centre; zooms out and back twice per 5 s. Tile coordinates. */
function scriptedCamera(input: PhaseInput, elapsedMs: number) {
  const u = (elapsedMs / 5000) * 2 * Math.PI;
  return {
    x: 44.5 + input.panTiles * Math.sin(u),
    y: 44.5 + input.panTiles * 0.6 * Math.sin(2 * u),
    zoom: input.zoom * 2 ** ((-input.zoomOctaves * (1 - Math.cos(2 * u))) / 2),
  };
}

function tick(time: number): void {
  requestAnimationFrame(tick);
  const running = phase;
  let drewLowerBound = false;
  if (running) {
    const elapsed = time - running.startedAt;
    if (running.measuring === false && elapsed >= running.input.warmupMs) {
      running.measuring = true;
      running.startedAt = time;
      running.lastTime = null;
    }
    const scriptTime = time - running.startedAt;
    if (running.input.kind === 'engine') {
      const camera = scriptedCamera(running.input, scriptTime);
      // With reduced motion flyTo moves the camera at once: one camera change per frame, no animation.
      engine?.flyTo(camera.x, camera.y, camera.zoom);
    } else if (lowerBound) {
      const ctx = canvas.getContext('2d')!;
      const drawStart = performance.now();
      ctx.drawImage(lowerBound, 0, 0);
      lastDrawMs = performance.now() - drawStart;
      drewLowerBound = true;
    }
  }

  lastDrawMs = drewLowerBound ? lastDrawMs : null;
  const callbacks = [...pendingFrames.values()];
  pendingFrames.clear();
  for (const callback of callbacks) callback(time);

  if (!running) return;
  const ctx = canvas.getContext('2d')!;
  const rasterStart = performance.now();
  ctx.getImageData(0, 0, 1, 1);
  const rasterMs = performance.now() - rasterStart;
  if (!running.measuring) return;

  const result = running.result;
  result.rafCallbacks++;
  if (running.lastTime !== null) result.intervals.push(time - running.lastTime);
  running.lastTime = time;
  if (lastDrawMs === null) result.missedDraws++;
  else {
    result.drawMs.push(lastDrawMs);
    result.rasterMs.push(rasterMs);
  }
  if (engine && running.input.kind === 'engine') {
    const view = engine.getView();
    if (!result.levelsOfDetail.includes(view.lod)) result.levelsOfDetail.push(view.lod);
    result.zoomRange = [Math.min(result.zoomRange[0], view.zoom), Math.max(result.zoomRange[1], view.zoom)];
  }
  if (time - running.startedAt >= running.input.durationMs) {
    phase = null;
    running.done(result);
  }
}
requestAnimationFrame(tick);

/** Tiny distinct PNG avatars as data: URLs (8×8 pixel-art faces in different colours). */
function makeAvatars(count: number): string[] {
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const surface = document.createElement('canvas');
    surface.width = 8;
    surface.height = 8;
    const ctx = surface.getContext('2d')!;
    ctx.fillStyle = `hsl(${(i * 360) / count}, 70%, 55%)`;
    ctx.fillRect(0, 0, 8, 8);
    ctx.fillStyle = '#111';
    ctx.fillRect(2, 2, 1, 2);
    ctx.fillRect(5, 2, 1, 2);
    ctx.fillRect(2, 5, 4, 1);
    urls.push(surface.toDataURL('image/png'));
  }
  return urls;
}

function timerResolutionUs(): number {
  let smallest = Infinity;
  for (let i = 0; i < 200; i++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    smallest = Math.min(smallest, b - a);
  }
  return Math.round(smallest * 1000);
}

// Eight of them: index 0, and any index taken modulo the length, is in range.
const AVATARS = makeAvatars(8);
const withAvatars = (plots: SetupInput['plots']): MapPlot[] =>
  plots.map((plot, i) => ({ ...plot, avatar_url: AVATARS[i % AVATARS.length]! }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

declare global {
  interface Window {
    bench: {
      setup(input: SetupInput): Promise<SetupResult>;
      snapshotFullView(zoom: number): Promise<void>;
      runPhase(input: PhaseInput): Promise<PhaseResult>;
      /** Swaps in another plot set (next scenario) and waits for the engine's idle work to settle. */
      usePlots(plots: SetupInput['plots']): Promise<void>;
      /** Keeps only the first `count` plots (0 = terrain only), with or without avatars, to split the cost. */
      setPlotCount(count: number, withAvatars?: boolean): void;
    };
  }
}

window.bench = {
  async setup({ layout, plots }) {
    await document.fonts.load('10px "Press Start 2P"').catch(() => undefined);
    engine = createMapEngine(canvas, {
      isTouch: false,
      overlay,
      frames,
      fonts: document.fonts,
      prefersReducedMotion: () => true,
      devicePixelRatio: () => window.devicePixelRatio || 1,
      onFrameDrawn: (ms) => {
        lastDrawMs = ms;
      },
    });
    engine.resize();
    engine.setLayout(layout);
    allPlots = withAvatars(plots);
    engine.setPlots(allPlots);
    // Let the idle pre-render of the terrain chunks finish before anything is measured.
    await sleep(1500);
    return {
      viewport: { width: canvas.clientWidth, height: canvas.clientHeight, dpr: window.devicePixelRatio || 1 },
      avatars: AVATARS.length,
      avatarBytes: AVATARS[0]!.length,
      timerResolutionUs: timerResolutionUs(),
    };
  },

  /** The lower bound's source: the engine's own full-view frame, copied once into an offscreen canvas. */
  async snapshotFullView(zoom) {
    engine!.flyTo(44.5, 44.5, zoom);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    lowerBound = document.createElement('canvas');
    lowerBound.width = canvas.width;
    lowerBound.height = canvas.height;
    lowerBound.getContext('2d')!.drawImage(canvas, 0, 0);
  },

  async usePlots(plots) {
    allPlots = withAvatars(plots);
    engine!.setPlots(allPlots);
    await sleep(1500);
  },

  setPlotCount(count, avatars = true) {
    engine?.setPlots(allPlots.slice(0, count).map((plot) => (avatars ? plot : { ...plot, avatar_url: '' })));
  },

  runPhase(input) {
    return new Promise((resolve) => {
      phase = {
        input,
        startedAt: performance.now(),
        measuring: false,
        lastTime: null,
        done: resolve,
        result: {
          drawMs: [],
          rasterMs: [],
          intervals: [],
          rafCallbacks: 0,
          missedDraws: 0,
          levelsOfDetail: [],
          zoomRange: [Infinity, -Infinity],
        },
      };
    });
  },
};
