import { TIER_COLOR, TIERS, normalizeTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { visibleTileRange, type Camera, type Viewport } from './camera.ts';
import { footprintDeviceRect, strokeFootprintOutlines, type DeviceRect } from './footprints.ts';
import { RENDITIONS, avatarRenditionUrl, renditionCaps, renditionFor, renditionUrl, type RenditionCaps } from './avatar-rendition.ts';
import type { ImageCache } from './image-cache.ts';
import { shouldShowAvatar, shouldShowInitials, tileScreenSize } from './level-of-detail.ts';
import { plotInitials, plotSize, type MapPlot } from './plot-index.ts';
import { LABEL_FONT_FAMILY } from './region-labels.ts';

interface PlotRect extends DeviceRect {
  plot: MapPlot;
  tier: Tier;
  size: number;
  /** The decoded avatar when it will be drawn (it covers the field). */
  avatar: CanvasImageSource | null;
}

/**
 * Plots whose footprint intersects the viewport (grown by `marginTiles`) — the only ones drawn.
 * Layer tiles pass a margin so a neighbour's glow reaches across the tile edge without a seam.
 */
export function visiblePlots(plots: readonly MapPlot[], camera: Camera, viewport: Viewport, marginTiles = 0): MapPlot[] {
  const range = visibleTileRange(camera, viewport, marginTiles);
  return plots.filter((plot) => {
    const size = plotSize(plot);
    return plot.x < range.x1 && plot.x + size > range.x0 && plot.y < range.y1 && plot.y + size > range.y0;
  });
}

/** Glow width in CSS px: grows with tier size (premium is a monument) and with zoom, up to a cap. */
export function glowWidth(size: number, tilePx: number): number {
  return Math.min(4 + size * 4, tilePx * (0.08 + size * 0.05));
}

export function frameWidth(tilePx: number): number {
  return Math.max(1, Math.min(4, Math.round(tilePx * 0.08)));
}

/** Tiles around a view whose plots can still paint into it: the widest glow, rounded up, plus one. */
export function glowMarginTiles(tilePx: number): number {
  return Math.ceil(glowWidth(4, tilePx) / Math.max(tilePx, 1e-6)) + 1;
}

/**
 * Draws plots over the terrain at mid and near zoom. Fills are batched per tier (one path per tier
 * and pass) so thousands of plots stay cheap; only avatars and initials are drawn one by one, and
 * only for plots big enough on screen to show them. Every pass paints only what stays visible (glow
 * as a ring around the plot, the tier colour as the frame, the field only where no avatar covers it):
 * a crowded map used to paint each plot's whole area four times before the avatar hid it.
 * Returns whether an avatar it wanted is still loading (the caller redraws when it arrives).
 */
export function drawPlots(
  ctx: CanvasRenderingContext2D,
  plots: readonly MapPlot[],
  camera: Camera,
  viewport: Viewport,
  dpr: number,
  images: ImageCache | null,
  caps: RenditionCaps = () => 'large',
): boolean {
  const tilePx = tileScreenSize(camera.zoom);
  const rects: PlotRect[] = visiblePlots(plots, camera, viewport, glowMarginTiles(tilePx)).map((plot) => {
    const size = plotSize(plot);
    const rect = footprintDeviceRect(camera, viewport, dpr, { x: plot.x, y: plot.y, size });
    return { ...rect, plot, tier: normalizeTier(plot.tier), size, avatar: null };
  });
  if (rects.length === 0) return false;
  const frame = frameWidth(tilePx) * dpr;
  let awaitingAvatar = false;
  for (const rect of rects) {
    if (!images || rect.width - frame * 2 <= 2 || !shouldShowAvatar(camera.zoom, rect.size)) continue;
    // The rendition its box needs; while it loads, another one stands in, and the tile is drawn again when it arrives.
    const url = rect.plot.avatar_url;
    const wanted = avatarRenditionUrl(url, rect.width - frame * 2, caps(rect.size));
    const ready = images.get(wanted);
    rect.avatar = ready ?? standIn(images, url, wanted);
    if (!ready && url && images.pendingCount() > 0) awaitingAvatar = true;
  }

  ctx.save();
  for (const tier of TIERS) {
    const ofTier = rects.filter((rect) => rect.tier === tier);
    if (ofTier.length === 0) continue;
    const colour = TIER_COLOR[tier].hex;
    // Glow: two translucent halos, wider for bigger tiers, as rings: the plot itself hides the middle.
    ctx.fillStyle = colour;
    for (const [spread, alpha] of [
      [1, 0.18],
      [0.5, 0.3],
    ] as const) {
      ctx.globalAlpha = alpha;
      ctx.beginPath();
      for (const rect of ofTier) {
        const glow = glowWidth(rect.size, tilePx) * spread * dpr;
        ringPath(ctx, rect.x - glow, rect.y - glow, rect.width + glow * 2, rect.height + glow * 2, rect);
      }
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    // Tier colour: the frame only, unless the plot is too small on screen to have a field.
    ctx.beginPath();
    for (const rect of ofTier) {
      if (hasField(rect, frame)) ringPath(ctx, rect.x, rect.y, rect.width, rect.height, inner(rect, frame));
      else ctx.rect(rect.x, rect.y, rect.width, rect.height);
    }
    ctx.fill();
    // Field inside the frame: a deep shade of the tier colour, behind initials; an avatar covers it.
    ctx.fillStyle = TIER_FIELD[tier];
    ctx.beginPath();
    for (const rect of ofTier) {
      if (hasField(rect, frame) && !rect.avatar) {
        const field = inner(rect, frame);
        ctx.rect(field.x, field.y, field.width, field.height);
      }
    }
    ctx.fill();
  }

  strokeFootprintOutlines(ctx, rects, dpr);

  for (const rect of rects) {
    const innerX = rect.x + frame;
    const innerY = rect.y + frame;
    const innerW = rect.width - frame * 2;
    const innerH = rect.height - frame * 2;
    if (innerW <= 2) continue;
    const avatar = rect.avatar;
    if (avatar) {
      // Avatars are photos: smooth them, unlike the pixel-art terrain.
      ctx.imageSmoothingEnabled = true;
      ctx.drawImage(avatar, innerX, innerY, innerW, innerH);
      ctx.imageSmoothingEnabled = false;
    } else if (shouldShowInitials(camera.zoom, rect.size)) {
      const fontPx = Math.max(6, Math.min(28 * dpr, Math.floor(innerH * 0.36)));
      ctx.font = `${fontPx}px ${LABEL_FONT_FAMILY}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const text = plotInitials(rect.plot.display_name);
      const cx = innerX + innerW / 2;
      const cy = innerY + innerH / 2 + fontPx * 0.06;
      ctx.fillStyle = '#000';
      ctx.fillText(text, cx + Math.max(1, dpr), cy + Math.max(1, dpr));
      ctx.fillStyle = '#ffffff';
      ctx.fillText(text, cx, cy);
    }
  }
  ctx.restore();
  return awaitingAvatar;
}

/**
 * What to draw while the wanted rendition loads: another one decoded already, the biggest first (zooming in, the
 * medium one until the large one is in; zooming out, the large one), else the small one (usually in already).
 */
function standIn(images: ImageCache, url: string, wanted: string): CanvasImageSource | null {
  for (const rendition of [...RENDITIONS].reverse()) {
    const other = renditionUrl(url, rendition);
    const image = other === wanted ? null : images.peek(other);
    if (image) return image;
  }
  return wanted === url ? null : images.get(url);
}

/**
 * The caps (renditionCaps) for a view: the plots of each size around it, counted over the view grown by `marginCssPx`
 * (the map tiles it draws reach past its edges). Far out, where no plot wants more than the small rendition, nothing
 * is counted.
 */
export function avatarRenditionCaps(
  plots: readonly MapPlot[],
  camera: Camera,
  viewport: Viewport,
  dpr: number,
  marginCssPx: number,
): RenditionCaps {
  const tilePx = tileScreenSize(camera.zoom);
  const boxOf = (size: number) => (size * tilePx - frameWidth(tilePx) * 2) * dpr;
  if (renditionFor(boxOf(4)) === 'small') return () => 'large';
  const grown = { width: viewport.width + marginCssPx * 2, height: viewport.height + marginCssPx * 2 };
  const plotsBySize = new Map<number, number>();
  for (const plot of visiblePlots(plots, camera, grown)) {
    const size = plotSize(plot);
    plotsBySize.set(size, (plotsBySize.get(size) ?? 0) + 1);
  }
  return renditionCaps(plotsBySize, boxOf);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function hasField(rect: PlotRect, frame: number): boolean {
  return rect.width > frame * 2 + 1;
}

function inner(rect: PlotRect, frame: number): Box {
  return { x: rect.x + frame, y: rect.y + frame, width: rect.width - frame * 2, height: rect.height - frame * 2 };
}

/** The outer box minus the hole, as one sub-path pair: the hole runs the other way round (non-zero winding). */
function ringPath(ctx: CanvasRenderingContext2D, x: number, y: number, width: number, height: number, hole: Box): void {
  ctx.rect(x, y, width, height);
  ctx.moveTo(hole.x, hole.y);
  ctx.lineTo(hole.x, hole.y + hole.height);
  ctx.lineTo(hole.x + hole.width, hole.y + hole.height);
  ctx.lineTo(hole.x + hole.width, hole.y);
  ctx.closePath();
}

const TIER_FIELD: Record<Tier, string> = {
  basic: '#1e3a8a',
  featured: '#854d0e',
  prime: '#581c87',
  premium: '#7f1d1d',
};

/** Far-zoom markers, baked into the overview bitmap: a tier-coloured square per plot with a dark core. */
export function paintPlotMarkers(ctx: CanvasRenderingContext2D, plots: readonly MapPlot[], tilePx: number): void {
  ctx.save();
  for (const tier of TIERS) {
    const ofTier = plots.filter((plot) => normalizeTier(plot.tier) === tier);
    if (ofTier.length === 0) continue;
    ctx.fillStyle = TIER_COLOR[tier].hex;
    ctx.globalAlpha = 0.35;
    ctx.beginPath();
    for (const plot of ofTier) {
      const size = plotSize(plot);
      const glow = Math.max(1, Math.round(tilePx * 0.15 * size));
      ctx.rect(plot.x * tilePx - glow, plot.y * tilePx - glow, size * tilePx + glow * 2, size * tilePx + glow * 2);
    }
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.beginPath();
    for (const plot of ofTier) {
      const size = plotSize(plot);
      ctx.rect(plot.x * tilePx, plot.y * tilePx, size * tilePx, size * tilePx);
    }
    ctx.fill();
    ctx.fillStyle = TIER_FIELD[tier];
    ctx.beginPath();
    for (const plot of ofTier) {
      const size = plotSize(plot);
      if (size * tilePx >= 6) ctx.rect(plot.x * tilePx + 2, plot.y * tilePx + 2, size * tilePx - 4, size * tilePx - 4);
    }
    ctx.fill();
  }
  ctx.restore();
}
