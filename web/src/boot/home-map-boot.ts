import { keepBootFetch } from '../api/boot-data.ts';
import {
  MAP_LAYOUT_PATH,
  PLOT_LIST_PATH,
  RESERVED_FOOTPRINTS_PATH,
  fetchMapLayout,
  fetchPlotList,
  fetchReservedFootprints,
} from '../api/map-data.ts';
import { publishCameraOn } from '../map/components/publish-camera.ts';
import { detectTouchDevice } from '../map/engine/camera.ts';
import { createMapEngine, type ReservedFootprint, type TileClick } from '../map/engine/engine.ts';
import { createReservedIndex } from '../map/engine/reserved-layer.ts';
import { MAP_CANVAS_LABEL, offerBootedMap, type BootedMapData, type BootedMapHandlers } from './booted-map.ts';

/** The prerendered home screen's map box (src/pages/home/map-placeholder.tsx), where the boot puts the map. */
export const MAP_BOOT_ATTRIBUTE = 'data-map-boot';

/** What the boot needs from the browser; without it the app makes the map, as it always did. */
function browserCanBoot(): boolean {
  return (
    typeof ResizeObserver === 'function' &&
    typeof HTMLCanvasElement !== 'undefined' &&
    typeof HTMLCanvasElement.prototype.getContext === 'function' &&
    document.visibilityState === 'visible'
  );
}

function mapCanvas(className: string): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.className = className;
  return canvas;
}

function hideLoadingNotice(box: Element): void {
  const notice = box.querySelector<HTMLElement>('[role="status"]');
  if (notice) notice.style.display = 'none';
}

/**
 * Draws the home map before the app loads (React, the router, TanStack Query: most of the page's script): on the
 * prerendered home screen, fetches the layout and the plots, makes the engine on a canvas in the map's box and lets
 * it draw; `loadApp` is called once the first frame is on screen (or at once when there is nothing to draw). The app's
 * map component takes the engine over (booted-map.ts, use-map-engine.ts) and its queries take the answers
 * (api/boot-data.ts). Returns false when it did not boot (another page, or a browser without what it needs).
 */
export function bootHomeMap(loadApp: () => void): boolean {
  const shell = document.getElementById('app-shell');
  const box = shell?.dataset.path === '/' && window.location.pathname === '/' ? shell.querySelector(`[${MAP_BOOT_ATTRIBUTE}]`) : null;
  if (!box || !browserCanBoot()) return false;

  const layout = keepBootFetch(MAP_LAYOUT_PATH, fetchMapLayout());
  const plots = keepBootFetch(PLOT_LIST_PATH, fetchPlotList());
  const canvas = mapCanvas('absolute inset-0 block h-full w-full touch-none select-none focus-visible:outline-none');
  canvas.setAttribute('role', 'application');
  canvas.setAttribute('aria-roledescription', 'map');
  canvas.setAttribute('aria-label', MAP_CANVAS_LABEL);
  const overlay = mapCanvas('pointer-events-none absolute inset-0 block h-full w-full');
  overlay.setAttribute('aria-hidden', 'true');

  let handlers: BootedMapHandlers = {};
  // A tap on the map before the app is in (the tap itself asks for it): answered once the app takes the map over, as
  // the claim popup or the plot's profile it would have opened. Only the last one: a second tap meant the other tile.
  let tapBeforeApp: TileClick | null = null;
  // Until the app's first render of the map, which feeds it from then on.
  let feeding = true;
  const shown: BootedMapData = {};
  // Land held while someone pays or under review: asked for with the app (a third request before the first frame would
  // delay it), drawn when it comes, and what a tap made before the app is answered by.
  let reserved: Promise<readonly ReservedFootprint[]> = Promise.resolve([]);
  let appRequested = false;
  const requestApp = () => {
    if (appRequested) return;
    appRequested = true;
    if (feeding) reserved = fetchReservedLand();
    // Out of the frame that drew: the app's script is fetched and run in tasks of its own.
    setTimeout(loadApp, 0);
  };
  const fetchReservedLand = () =>
    keepBootFetch(RESERVED_FOOTPRINTS_PATH, fetchReservedFootprints()).then(
      (answer) => {
        if (feeding) {
          engine.setReservedFootprints(answer);
          shown.reserved = answer;
        }
        return answer;
      },
      // Not known: the tap goes on as taken (the checkout still refuses held land), the app's query asks again.
      () => [],
    );
  const engine = createMapEngine(canvas, {
    isTouch: detectTouchDevice(window),
    overlay,
    fonts: document.fonts,
    onTileClick: (click) => {
      if (handlers.onTileClick) return handlers.onTileClick(click);
      tapBeforeApp = click;
      // Says the tap was taken and its answer is on the way (to assistive technology, and with the pointer).
      canvas.setAttribute('aria-busy', 'true');
      canvas.style.cursor = 'progress';
    },
    onPlotHover: (plot, screen) => handlers.onPlotHover?.(plot, screen),
    onReservedHover: (footprint, screen) => handlers.onReservedHover?.(footprint, screen),
    onRegionLabelHover: (region, screen) => handlers.onRegionLabelHover?.(region, screen),
    onInteraction: () => handlers.onInteraction?.(),
    onViewChange: publishCameraOn(canvas),
    // The first frame drawn shows the layout's terrain (the canvas has no size before the layout is in, see below).
    onFrameDrawn: requestApp,
  });
  // Someone acting on the page, or leaving it (no frames in a hidden tab), wants the app now.
  window.addEventListener('pointerdown', requestApp, { capture: true, once: true });
  window.addEventListener('keydown', requestApp, { capture: true, once: true });
  document.addEventListener('visibilitychange', requestApp, { once: true });
  // Under the box's loading notice, which goes once the layout is in.
  box.prepend(canvas, overlay);
  const resizes = new ResizeObserver(() => engine.resize());
  const onWindowResize = () => engine.resize();

  layout.then((answer) => {
    if (!feeding) return;
    engine.setLayout(answer);
    shown.layout = answer;
    // Sized only now: the map's first frame is the terrain, not an empty sea before it (as in the app without boot).
    resizes.observe(canvas);
    window.addEventListener('resize', onWindowResize);
    if (!answer) requestApp();
    else hideLoadingNotice(box);
  }, requestApp);
  plots.then((answer) => {
    if (!feeding) return;
    engine.setPlots(answer);
    shown.plots = answer;
  }, requestApp);

  offerBootedMap({
    engine,
    canvas,
    overlay,
    shown,
    stopFeeding: () => (feeding = false),
    adopt(appHandlers) {
      handlers = appHandlers;
      resizes.disconnect();
      window.removeEventListener('resize', onWindowResize);
      const tap = tapBeforeApp;
      tapBeforeApp = null;
      if (!tap) return;
      // The tap may have come before the reserved land: it is answered as on land it knows to be held, if it is.
      void reserved.then((footprints) => {
        canvas.removeAttribute('aria-busy');
        canvas.style.cursor = '';
        appHandlers.onTileClick?.({ ...tap, reserved: createReservedIndex(footprints).at(tap.x, tap.y) ?? undefined });
      });
    },
  });
  return true;
}
