import { LARGE_AVATARS_KEPT, MEDIUM_AVATARS_KEPT, renditionImageCache, type RenditionCaps } from './avatar-rendition.ts';
import type { Camera, Viewport } from './camera.ts';
import type { CanvasFactory } from './canvas-factory.ts';
import { createImageCache, type ImageLoader } from './image-cache.ts';
import { TILE_DEVICE_PX } from './layer-cache.ts';
import { avatarRenditionCaps } from './plot-layer.ts';
import type { MapPlot } from './plot-index.ts';
import { createHatchSource } from './reserved-layer.ts';
import type { SceneState } from './scene.ts';
import { renderFarComposite, type StaticWorld, type SurfaceImage } from './static-layers.ts';

export interface WorldSourceOptions {
  scene: SceneState;
  createSurface: CanvasFactory;
  loadImage?: ImageLoader;
  /** An avatar arrived: tiles drawn while it was loading lack it. */
  onImageLoad: () => void;
}

/** What the static layers are painted from (static-layers.ts), kept in step with the scene's data. */
export interface WorldSource {
  /** Null while there is no layout. */
  current(): StaticWorld | null;
  /** Layout, plots or reserved land changed. */
  rebuild(): void;
  /**
   * Counts the plots around the view once per render zoom and view position (in half layer tiles), not every frame:
   * the caps only keep a view from wanting more big renditions than the image caches hold.
   */
  fitAvatarCaps(camera: Camera, viewport: Viewport, dpr: number): void;
  clear(): void;
}

export function createWorldSource({ scene, createSurface, loadImage, onImageLoad }: WorldSourceOptions): WorldSource {
  const hatch = createHatchSource(createSurface);
  const images = renditionImageCache(
    createImageCache({ load: loadImage, onLoad: onImageLoad }),
    createImageCache({ load: loadImage, onLoad: onImageLoad, maxEntries: MEDIUM_AVATARS_KEPT }),
    createImageCache({ load: loadImage, onLoad: onImageLoad, maxEntries: LARGE_AVATARS_KEPT }),
  );
  let world: StaticWorld | null = null;
  let farComposite: SurfaceImage | null = null;
  /** The avatar renditions the view's plots may draw at, for the camera and plots they were counted for. */
  let avatarCaps: { key: string; plots: readonly MapPlot[]; caps: RenditionCaps } | null = null;

  return {
    current: () => world,
    rebuild() {
      farComposite = null;
      const layout = scene.layout;
      world = layout
        ? {
            terrain: layout.terrain,
            plots: scene.plots.plots,
            reserved: scene.reserved.footprints,
            hatch,
            farComposite: () =>
              (farComposite ??= renderFarComposite(layout.terrain, scene.plots.plots, createSurface, scene.reserved.footprints)),
            images,
            avatarCaps: () => avatarCaps?.caps ?? (() => 'large'),
          }
        : null;
    },
    fitAvatarCaps(camera, viewport, dpr) {
      if (!world) return;
      const plots = world.plots;
      const step = TILE_DEVICE_PX / 2 / (camera.zoom * dpr);
      const key = `${camera.zoom}|${dpr}|${viewport.width}x${viewport.height}|${Math.round(camera.centerX / step)}|${Math.round(camera.centerY / step)}`;
      if (avatarCaps?.key === key && avatarCaps.plots === plots) return;
      avatarCaps = { key, plots, caps: avatarRenditionCaps(plots, camera, viewport, dpr, TILE_DEVICE_PX / 2 / dpr) };
    },
    clear() {
      images.clear();
    },
  };
}
