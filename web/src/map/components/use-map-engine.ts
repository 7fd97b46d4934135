import { useEffect, useEffectEvent, type RefObject } from 'react';
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
 * Mounts the map engine on the canvas for as long as the component lives, sized to the canvas as it and the window
 * resize. The engine is made once, with the options of that moment (its zoom limits follow the device it was created
 * on); only `onTileClick` is always the latest one given.
 */
export function useMapEngine({ canvasRef, overlayRef, engineRef, onTileClick, ...options }: UseMapEngineOptions): void {
  const handleTileClick = useEffectEvent(onTileClick);
  const createEngine = useEffectEvent((canvas: HTMLCanvasElement) =>
    createMapEngine(canvas, {
      ...options,
      overlay: overlayRef.current,
      onTileClick: handleTileClick,
      fonts: typeof document !== 'undefined' ? document.fonts : null,
      onViewChange: publishCameraOn(canvas),
    }),
  );

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const engine = createEngine(canvas);
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
  }, [canvasRef, engineRef]);
}
