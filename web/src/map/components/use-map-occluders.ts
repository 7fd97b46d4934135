import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import type { ScreenRect } from '../engine/engine.ts';
import { layoutBox } from '../engine/layout-box.ts';

/** Marks the map's own chrome (panels, buttons, hints) drawn over the canvas. */
export const MAP_OCCLUDER_ATTRIBUTE = 'data-map-occluder';

/**
 * The screen rects (CSS px relative to the canvas) where the map cannot be seen: the elements given,
 * and the parts of the canvas scrolled out of the window.
 */
export function measureOccluders(
  canvas: Element,
  elements: Iterable<Element>,
  win: Pick<Window, 'innerWidth' | 'innerHeight'> = window,
): ScreenRect[] {
  const box = layoutBox(canvas);
  const frame = { ...box, bottom: box.top + box.height };
  const rects: ScreenRect[] = [];
  for (const element of elements) {
    const rect = element.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) continue;
    rects.push({
      x: Math.round(rect.left - frame.left),
      y: Math.round(rect.top - frame.top),
      width: Math.round(rect.width),
      height: Math.round(rect.height),
    });
  }
  if (frame.top < 0) rects.push({ x: 0, y: 0, width: frame.width, height: Math.round(-frame.top) });
  const below = frame.bottom - win.innerHeight;
  if (below > 0) rects.push({ x: 0, y: Math.round(frame.height - below), width: frame.width, height: Math.round(below) });
  return rects;
}

/**
 * Keeps the engine told what covers the map: every [data-map-occluder] inside `container` (followed as it
 * appears, resizes and goes) and the elements passed to `keepClearOf` (a dialog beside the chosen tile)
 * while they are on the page. `measure()` re-reads them at once, before a flight.
 */
export function useMapOccluders(
  containerRef: RefObject<HTMLElement | null>,
  canvasRef: RefObject<HTMLElement | null>,
  apply: (rects: ScreenRect[]) => void,
): { measure: () => void; keepClearOf: (element: Element) => void } {
  const extras = useRef(new Set<Element>());
  // `measure` runs from listeners and the caller's handlers, outside render: it calls the latest `apply`.
  const applyRef = useRef(apply);
  useLayoutEffect(() => {
    applyRef.current = apply;
  });
  const schedule = useRef<() => void>(() => {});

  const elements = useCallback((): Element[] => {
    for (const element of extras.current) if (!element.isConnected) extras.current.delete(element);
    const own = containerRef.current ? [...containerRef.current.querySelectorAll(`[${MAP_OCCLUDER_ATTRIBUTE}]`)] : [];
    return [...own, ...extras.current];
  }, [containerRef]);

  const measure = useCallback(() => {
    if (!canvasRef.current) return;
    applyRef.current(measureOccluders(canvasRef.current, elements()));
  }, [canvasRef, elements]);

  useEffect(() => {
    const root = containerRef.current;
    if (!root) return;
    const observed = new Set<Element>();
    const resizes = typeof ResizeObserver === 'function' ? new ResizeObserver(() => schedule.current()) : null;
    const follow = () => {
      const current = new Set(elements());
      for (const element of current) if (!observed.has(element)) resizes?.observe(element);
      for (const element of observed) if (!current.has(element)) resizes?.unobserve(element);
      observed.clear();
      for (const element of current) observed.add(element);
    };
    let frame = 0;
    schedule.current = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        follow();
        measure();
      });
    };
    // Chrome appearing or going inside the map, and dialogs (portalled into <body>) opening or closing.
    const mutations = typeof MutationObserver === 'function' ? new MutationObserver(() => schedule.current()) : null;
    mutations?.observe(root, { childList: true, subtree: true });
    mutations?.observe(document.body, { childList: true });
    const onResize = () => schedule.current();
    window.addEventListener('resize', onResize);
    schedule.current();
    return () => {
      cancelAnimationFrame(frame);
      schedule.current = () => {};
      resizes?.disconnect();
      mutations?.disconnect();
      window.removeEventListener('resize', onResize);
    };
  }, [containerRef, elements, measure]);

  const keepClearOf = useCallback((element: Element) => {
    extras.current.add(element);
    schedule.current();
  }, []);

  return useMemo(() => ({ measure, keepClearOf }), [measure, keepClearOf]);
}
