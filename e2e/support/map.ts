/**
 * The canvas map as a test drives it: the map publishes its camera on the canvas (data-zoom, data-center-x,
 * data-center-y), from which a tile's place on screen follows. Also the picture a buyer uploads as an avatar.
 */
import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import type { Page } from 'playwright-core';

export const mapCanvas = (page: Page) => page.locator('canvas[aria-roledescription="map"]');

/** The camera the map shows now: zoom and the world tile at the centre of the canvas. */
export async function mapView(page: Page): Promise<{ zoom: number; x: number; y: number }> {
  const canvas = mapCanvas(page);
  return {
    zoom: Number(await canvas.getAttribute('data-zoom')),
    x: Number(await canvas.getAttribute('data-center-x')),
    y: Number(await canvas.getAttribute('data-center-y')),
  };
}

/** Where tile (x, y)'s centre is on screen. */
export async function screenPointOfTile(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = (await mapCanvas(page).boundingBox())!;
  const view = await mapView(page);
  return {
    x: box.x + box.width / 2 + (x + 0.5 - view.x) * TILE_SIZE_PX * view.zoom,
    y: box.y + box.height / 2 + (y + 0.5 - view.y) * TILE_SIZE_PX * view.zoom,
  };
}

/**
 * Land tiles nearest the centre of the map's first view (in view, clear of the panels), nearest first: with
 * `side` above 1, the top-left corners of side×side squares of land, where a plot of that size fits.
 */
export async function landNearCentre(page: Page, siteUrl: string, side = 1): Promise<Array<{ x: number; y: number }>> {
  const layout = (await (await page.request.get(`${siteUrl}/api/map-layout`)).json()) as {
    tiles: Array<{ x: number; y: number; is_land: boolean }>;
  };
  const centre = await mapView(page);
  const isLand = new Set(layout.tiles.filter((t) => t.is_land).map((t) => `${t.x},${t.y}`));
  const offsets = Array.from({ length: side }, (_, i) => i);
  return layout.tiles
    .filter((t) => offsets.every((dx) => offsets.every((dy) => isLand.has(`${t.x + dx},${t.y + dy}`))))
    .map(({ x, y }) => ({ x, y }))
    .sort((a, b) => Math.hypot(a.x - centre.x, a.y - centre.y) - Math.hypot(b.x - centre.x, b.y - centre.y));
}

/**
 * A small PNG drawn in the page, as a file on the buyer's disk would be: `fill` all over, and an optional centred
 * `square` (a picture the cropper visibly crops).
 */
export async function avatarFile(page: Page, picture: { fill: string; width?: number; height?: number; square?: string }) {
  const base64 = await page.evaluate(
    ({ fill, width, height, square }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext('2d')!;
      ctx.fillStyle = fill;
      ctx.fillRect(0, 0, width, height);
      if (square) {
        const side = Math.min(width, height) * (2 / 3);
        ctx.fillStyle = square;
        ctx.fillRect((width - side) / 2, (height - side) / 2, side, side);
      }
      return canvas.toDataURL('image/png').split(',')[1] ?? '';
    },
    { fill: picture.fill, width: picture.width ?? 48, height: picture.height ?? 48, square: picture.square ?? null },
  );
  return { name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(base64, 'base64') };
}
