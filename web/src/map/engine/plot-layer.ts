import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import { TIER_COLOR, TIERS, normalizeTier, type Tier } from '@pixel-atlas/contracts/tiers';
import { visibleTileRange, worldToScreen, type Camera, type Viewport } from './camera.ts';
import type { ImageCache } from './image-cache.ts';
import { shouldShowAvatar, shouldShowInitials, tileScreenSize } from './level-of-detail.ts';
import { plotInitials, plotSize, type MapPlot } from './plot-index.ts';
import { LABEL_FONT_FAMILY } from './region-labels.ts';

interface PlotRect {
  plot: MapPlot;
  tier: Tier;
  size: number;
  /** Device pixels, snapped. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Plots whose footprint intersects the viewport — the only ones drawn. */
export function visiblePlots(plots: readonly MapPlot[], camera: Camera, viewport: Viewport): MapPlot[] {
  const range = visibleTileRange(camera, viewport);
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

/**
 * Draws plots over the terrain at mid and near zoom. Fills are batched per tier (one path per tier
 * and pass) so thousands of plots stay cheap; only avatars and initials are drawn one by one, and
 * only for plots big enough on screen to show them.
 */
export function drawPlots(
  ctx: CanvasRenderingContext2D,
  plots: readonly MapPlot[],
  camera: Camera,
  viewport: Viewport,
  dpr: number,
  images: ImageCache | null,
): void {
  const tilePx = tileScreenSize(camera.zoom);
  const rects: PlotRect[] = visiblePlots(plots, camera, viewport).map((plot) => {
    const size = plotSize(plot);
    const topLeft = worldToScreen(camera, viewport, plot.x * TILE_SIZE_PX, plot.y * TILE_SIZE_PX);
    const bottomRight = worldToScreen(camera, viewport, (plot.x + size) * TILE_SIZE_PX, (plot.y + size) * TILE_SIZE_PX);
    const x = Math.round(topLeft.x * dpr);
    const y = Math.round(topLeft.y * dpr);
    return { plot, tier: normalizeTier(plot.tier), size, x, y, width: Math.round(bottomRight.x * dpr) - x, height: Math.round(bottomRight.y * dpr) - y };
  });
  if (rects.length === 0) return;
  const frame = frameWidth(tilePx) * dpr;

  ctx.save();
  for (const tier of TIERS) {
    const ofTier = rects.filter((rect) => rect.tier === tier);
    if (ofTier.length === 0) continue;
    const colour = TIER_COLOR[tier].hex;
    // Glow: two translucent halos, wider for bigger tiers.
    ctx.fillStyle = colour;
    for (const [spread, alpha] of [
      [1, 0.18],
      [0.5, 0.3],
    ] as const) {
      ctx.globalAlpha = alpha;
      ctx.beginPath();
      for (const rect of ofTier) {
        const glow = glowWidth(rect.size, tilePx) * spread * dpr;
        ctx.rect(rect.x - glow, rect.y - glow, rect.width + glow * 2, rect.height + glow * 2);
      }
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    ctx.beginPath();
    for (const rect of ofTier) ctx.rect(rect.x, rect.y, rect.width, rect.height);
    ctx.fill();
    // Field inside the frame: a deep shade of the tier colour, behind initials or the avatar.
    ctx.fillStyle = TIER_FIELD[tier];
    ctx.beginPath();
    for (const rect of ofTier) {
      if (rect.width > frame * 2 + 1) ctx.rect(rect.x + frame, rect.y + frame, rect.width - frame * 2, rect.height - frame * 2);
    }
    ctx.fill();
  }

  ctx.strokeStyle = 'rgba(0, 0, 0, 0.85)';
  ctx.lineWidth = Math.max(1, dpr);
  ctx.beginPath();
  for (const rect of rects) ctx.rect(rect.x - 0.5, rect.y - 0.5, rect.width + 1, rect.height + 1);
  ctx.stroke();

  for (const rect of rects) {
    const innerX = rect.x + frame;
    const innerY = rect.y + frame;
    const innerW = rect.width - frame * 2;
    const innerH = rect.height - frame * 2;
    if (innerW <= 2) continue;
    const avatar = images && shouldShowAvatar(camera.zoom, rect.size) ? images.get(rect.plot.avatar_url) : null;
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
