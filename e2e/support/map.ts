/**
 * The canvas map as a test drives it: the map publishes its camera on the canvas (data-zoom, data-center-x,
 * data-center-y), from which a tile's place on screen follows. Also the picture a buyer uploads as an avatar.
 */
import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export const mapCanvas = (page: Page) => page.locator('canvas[aria-roledescription="map"]');

/**
 * Opens the home page with the app's script held back, until the boot's map has drawn its first frame; returns what
 * lets the app load.
 */
export async function openHomeWithAppHeld(home: Page, siteUrl: string): Promise<() => void> {
  let releaseApp = () => {};
  const appHeld = new Promise<void>((resolve) => (releaseApp = resolve));
  await home.route(/\/assets\/main-[^/]+\.js$/, async (route) => {
    await appHeld;
    await route.continue();
  });
  await home.goto(siteUrl);
  await expect.poll(() => mapCanvas(home).getAttribute('data-zoom'), { timeout: 15_000 }).not.toBeNull();
  return releaseApp;
}

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

/**
 * True when the camera the canvas publishes is the same before and after the browser has drawn four more frames: no
 * flight, wheel zoom or pan is moving it (four: an eased flight's first frames move less than the published two
 * decimals). Frames, not a clock: a busy machine draws them later, and the answer holds.
 */
async function cameraStill(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const canvas = document.querySelector<HTMLCanvasElement>('canvas[aria-roledescription="map"]');
        if (!canvas) return resolve(false);
        const read = () => `${canvas.dataset.zoom},${canvas.dataset.centerX},${canvas.dataset.centerY}`;
        const before = read();
        const after = (frames: number) => (frames === 0 ? resolve(read() === before) : requestAnimationFrame(() => after(frames - 1)));
        after(4);
      }),
  );
}

/**
 * Waits until the camera rests and returns where. A camera resting before its move started does not count: with
 * `over`, the move ends with that tile under the middle of the view (within `tolerance` tiles, 1 unless told); with
 * `awayFrom`, anywhere but that view (a flight whose end depends on the panels).
 */
export async function cameraAtRest(
  page: Page,
  expected: { over?: { x: number; y: number; tolerance?: number }; awayFrom?: { zoom: number; x: number; y: number } } = {},
): Promise<{ zoom: number; x: number; y: number }> {
  const { over, awayFrom } = expected;
  await expect
    .poll(async () => {
      if (!(await cameraStill(page))) return false;
      const view = await mapView(page);
      if (awayFrom && view.x === awayFrom.x && view.y === awayFrom.y && view.zoom === awayFrom.zoom) return false;
      if (!over) return true;
      const tolerance = over.tolerance ?? 1;
      return Math.abs(view.x - over.x) <= tolerance && Math.abs(view.y - over.y) <= tolerance;
    })
    .toBe(true);
  return mapView(page);
}

/**
 * From a tier card on the home page to the map, as a buyer does: "Select <tier> Plot", then "I'LL SELECT ON THE MAP",
 * which closes the guidance and scrolls the page back up to the map; returns once that scroll has ended.
 */
export async function selectTierOnMap(page: Page, tier: 'Basic' | 'Featured' | 'Prime' | 'Premium' = 'Basic'): Promise<void> {
  await page.getByRole('button', { name: `Select ${tier} Plot` }).click();
  await expect.poll(() => page.getByRole('dialog', { name: `${tier} Tier Selected!` }).count()).toBe(1);
  await page.getByRole('button', { name: "I'LL SELECT ON THE MAP" }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  await expect.poll(() => scrolledToTopAndStill(page)).toBe(true);
  // The map's camera too: a tile's place on screen is read from it next.
  await cameraAtRest(page);
}

/**
 * The page is at the top (where "I'LL SELECT ON THE MAP" scrolls it, to the map) and not scrolling: the same position
 * four frames apart. Frames, not a clock: a busy machine draws them later, and the answer holds. At the top, not merely
 * higher than before: a smooth scroll whose offset reached the page late looked still half-way, and a click aimed at
 * the map landed above it.
 */
export function scrolledToTopAndStill(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const after = (frames: number) => {
          if (window.scrollY !== 0) return resolve(false);
          if (frames > 0) return requestAnimationFrame(() => after(frames - 1));
          resolve(true);
        };
        after(4);
      }),
  );
}
