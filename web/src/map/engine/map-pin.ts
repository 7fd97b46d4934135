/** The spec's map pin: a tier-coloured teardrop whose tip marks the selected tile, bouncing on arrival. */

export const PIN_BOUNCE_MS = 1800;
const BOUNCE_PERIOD_MS = 450;

/** Upward offset in CSS px (negative = up), decaying bounces that settle after PIN_BOUNCE_MS. */
export function pinBounceOffset(elapsedMs: number, radius: number, reducedMotion: boolean): number {
  if (reducedMotion || elapsedMs < 0 || elapsedMs >= PIN_BOUNCE_MS) return 0;
  const decay = 1 - elapsedMs / PIN_BOUNCE_MS;
  return -Math.abs(Math.sin((Math.PI * elapsedMs) / BOUNCE_PERIOD_MS)) * radius * 1.2 * decay;
}

export function pinRadius(tileScreenPx: number): number {
  return Math.min(20, Math.max(7, tileScreenPx * 0.32));
}

/** Draws the pin with its tip at (tipX, tipY), in the context's current units. */
export function drawMapPin(ctx: CanvasRenderingContext2D, tipX: number, tipY: number, radius: number, colour: string, lift: number): void {
  const centerX = tipX;
  const tip = tipY + lift;
  const centerY = tip - radius * 2;
  const spread = Math.acos(radius / (tip - centerY));

  ctx.save();
  // Shadow stays on the ground while the pin bounces.
  ctx.globalAlpha = 0.35;
  ctx.fillStyle = '#000';
  ctx.beginPath();
  ctx.ellipse(tipX, tipY, radius * 0.6, radius * 0.22, 0, 0, Math.PI * 2);
  ctx.fill();
  ctx.globalAlpha = 1;

  ctx.beginPath();
  ctx.moveTo(centerX, tip);
  ctx.arc(centerX, centerY, radius, Math.PI / 2 + spread, Math.PI / 2 - spread, false);
  ctx.closePath();
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.lineWidth = Math.max(1.5, radius * 0.16);
  ctx.strokeStyle = '#120f1f';
  ctx.stroke();

  ctx.beginPath();
  ctx.arc(centerX, centerY, radius * 0.4, 0, Math.PI * 2);
  ctx.fillStyle = '#f4efe1';
  ctx.fill();
  ctx.restore();
}
