import { useEffect, useEffectEvent, useLayoutEffect, useRef, type RefObject } from 'react';
import { takeBootedMap, type BootedMap } from '../../boot/booted-map.ts';
import { createMapEngine, type MapEngine, type MapEngineOptions } from '../engine/engine.ts';
import { publishCameraOn } from './publish-camera.ts';

export interface UseMapEngineOptions extends Pick<
  MapEngineOptions,
  'isTouch' | 'onPlotHover' | 'onReservedHover' | 'onRegionLabelHover' | 'onInteraction'
> {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  overlayRef: RefObject<HTMLCanvasElement | null>;
  /** Holds the engine while it is mounted; null before and after. */
  engineRef: RefObject<MapEngine | null>;
  onTileClick: NonNullable<MapEngineOptions['onTileClick']>;
}

/**
 * Puts the booted map's canvases (src/boot/home-map-boot.ts: drawn before the app loaded) where the component rendered
 * its own, keeping the component's attributes, before the browser paints: the map on screen stays, pixels and all.
 */
function swapInBootedCanvases(
  booted: BootedMap,
  canvasRef: RefObject<HTMLCanvasElement | null>,
  overlayRef: RefObject<HTMLCanvasElement | null>,
) {
  const pairs = [
    [canvasRef, booted.canvas],
    [overlayRef, booted.overlay],
  ] as const;
  for (const [ref, bootCanvas] of pairs) {
    const own = ref.current;
    if (!own) continue;
    bootCanvas.className = own.className;
    for (const { name, value } of own.attributes) if (name !== 'style') bootCanvas.setAttribute(name, value);
    if (own.style.cssText) bootCanvas.style.cssText += own.style.cssText;
    own.replaceWith(bootCanvas);
    ref.current = bootCanvas;
  }
}

/**
 * Mounts the map engine on the canvas for as long as the component lives, sized to the canvas as it and the window
 * resize. The engine is made once, with the options of that moment (its zoom limits follow the device it was created
 * on); only `onTileClick` is always the latest one given. On the home page the engine may already exist: the boot drew
 * the first frame before the app loaded, and the component adopts that engine and its canvases instead of making its
 * own (once: a later mount makes its own).
 */
export function useMapEngine({ canvasRef, overlayRef, engineRef, onTileClick, ...options }: UseMapEngineOptions): void {
  const handleTileClick = useEffectEvent(onTileClick);
  const engineOptions = useEffectEvent(() => ({
    ...options,
    onTileClick: handleTileClick,
    fonts: typeof document !== 'undefined' ? document.fonts : null,
  }));
  const bootedRef = useRef<BootedMap | null>(null);

  // A layout effect: the commit that drops the prerendered map box (with the booted canvas in it) must show the canvas
  // again before the browser paints.
  useLayoutEffect(() => {
    const booted = takeBootedMap();
    if (!booted) return;
    swapInBootedCanvases(booted, canvasRef, overlayRef);
    bootedRef.current = booted;
  }, [canvasRef, overlayRef]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const booted = bootedRef.current;
    bootedRef.current = null;
    let engine: MapEngine;
    if (booted) {
      booted.adopt(engineOptions());
      engine = booted.engine;
    } else {
      engine = createMapEngine(canvas, { ...engineOptions(), overlay: overlayRef.current, onViewChange: publishCameraOn(canvas) });
    }
    engineRef.current = engine;
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => engine.resize()) : null;
    // The observer reports the canvas's first size too, after the browser's own layout of the next frame and before
    // it paints: sizing it here instead forced a layout of the whole page in the middle of hydration (on a 4x slower
    // CPU the longest task of the home page's boot: 60 ms of layout inside the effect that made the engine).
    if (observer) observer.observe(canvas);
    else engine.resize();
    const onWindowResize = () => engine.resize();
    window.addEventListener('resize', onWindowResize);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', onWindowResize);
      engine.destroy();
      engineRef.current = null;
    };
  }, [canvasRef, overlayRef, engineRef]);
}
