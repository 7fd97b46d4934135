import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN, startStack, type Stack, gotoLive } from './support/stack.ts';
import { cameraAtRest, landNearCentre, mapCanvas, mapView, openHomeWithAppHeld, screenPointOfTile } from './support/map.ts';

let stack: Stack;
let page: Page;

beforeAll(async () => {
  stack = await startStack({ MAP_SEED: 'pixel-atlas' });
  page = await stack.browser.newPage({ viewport: { width: 1280, height: 800 } });
});

afterAll(async () => {
  await stack?.stop();
});

const canvas = () => mapCanvas(page);
const view = () => mapView(page);

async function openHome(): Promise<void> {
  await gotoLive(page, stack.url);
  await expect.poll(async () => (await view()).zoom, { timeout: 15_000 }).toBeGreaterThan(0);
}

/** After an action that moves the camera: the camera at rest somewhere else (a busy page may start the move late). */
const movedFrom = (before: { zoom: number; x: number; y: number }) => cameraAtRest(page, { awayFrom: before });
const settled = () => cameraAtRest(page);

describe('the map in a real browser', () => {
  it('renders the generated world at the desktop zoom and shows the desktop hint', async () => {
    await openHome();
    expect((await settled()).zoom).toBeCloseTo(0.45, 2);
    await expect.poll(() => page.getByText('Click and drag to explore • Scroll to zoom').count()).toBe(1);
    await expect.poll(() => page.getByText('ATLAS REGIONS').count()).toBe(1);
    // The canvas really has the world on it: pixels differ across the view (not one flat colour). The first frames may
    // still show the sea while the world's data arrives.
    const distinctColours = () =>
      canvas().evaluate((el: HTMLCanvasElement) => {
        const ctx = el.getContext('2d')!;
        const { data } = ctx.getImageData(0, 0, el.width, el.height);
        const colours = new Set<number>();
        // i is a multiple of 4 below data.length (RGBA, four bytes a pixel), so i + 2 is in range too
        for (let i = 0; i < data.length; i += 4 * 97) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
        return colours.size;
      });
    await expect.poll(distinctColours).toBeGreaterThan(20);
    await page.screenshot({ path: path.resolve(import.meta.dirname, '../.data/screenshots/map.png') });
  });

  it('draws the first frame before the app loads, and the app takes that map over (one engine, one fetch, no gap)', async () => {
    const home = await stack.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      const requests: string[] = [];
      home.on('request', (request) => requests.push(new URL(request.url()).pathname));
      // A hydration mismatch (the cache holding the boot's answers while the page hydrates) is logged as an error.
      const errors: string[] = [];
      home.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      // The app's script is held until the boot's map has been seen on its own.
      const releaseApp = await openHomeWithAppHeld(home, stack.url);
      const booted = mapCanvas(home);
      expect(await home.evaluate(() => document.documentElement.dataset.app)).toBeUndefined();
      // Marks the boot's canvas, and watches every frame from now on for one without it on the page.
      await booted.evaluate((el) => {
        const w = window as unknown as { __bootCanvas: Element; __framesWithoutMap: number };
        w.__bootCanvas = el;
        w.__framesWithoutMap = 0;
        const watch = () => {
          if (!el.isConnected) w.__framesWithoutMap++;
          requestAnimationFrame(watch);
        };
        requestAnimationFrame(watch);
      });
      releaseApp();
      await home.waitForFunction(() => document.documentElement.dataset.app === 'live', undefined, { timeout: 60_000 });
      await expect.poll(() => home.getByText('ATLAS REGIONS').count()).toBe(1);
      await cameraAtRest(home);
      const adopted = await home.evaluate(() => {
        const w = window as unknown as { __bootCanvas: Element; __framesWithoutMap: number };
        const maps = document.querySelectorAll('canvas[aria-roledescription="map"]');
        return { maps: maps.length, same: maps[0] === w.__bootCanvas, framesWithoutMap: w.__framesWithoutMap };
      });
      expect(adopted).toEqual({ maps: 1, same: true, framesWithoutMap: 0 });
      expect(requests.filter((p) => p === '/api/map-layout')).toHaveLength(1);
      expect(requests.filter((p) => p === '/api/plots')).toHaveLength(1);
      // Its CSS is inline in the page: the app's loader does not fetch it again.
      expect(requests.filter((p) => p.endsWith('.css'))).toEqual([]);
      expect(errors).toEqual([]);
      // The adopted engine answers the app: the zoom control moves its camera.
      const before = await mapView(home);
      await home.getByRole('button', { name: 'Zoom in' }).click();
      await cameraAtRest(home, { awayFrom: before });
    } finally {
      await home.close();
    }
  });

  it('answers a tap made on the map before the app loaded, once it has: the claim popup of that tile', async () => {
    const home = await stack.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      const releaseApp = await openHomeWithAppHeld(home, stack.url);
      const [tile] = await landNearCentre(home, stack.url);
      const point = await screenPointOfTile(home, tile!.x, tile!.y);
      await home.mouse.click(point.x, point.y);
      // The boot took the tap (once no second tap made it a double one) and says its answer is on the way.
      await expect.poll(() => mapCanvas(home).getAttribute('aria-busy')).toBe('true');
      expect(await home.evaluate(() => document.documentElement.dataset.app)).toBeUndefined();
      releaseApp();
      const popup = home.getByRole('dialog', { name: 'Claim This Tile' });
      await expect.poll(() => popup.getByText(`Position (${tile!.x}, ${tile!.y})`).count(), { timeout: 60_000 }).toBe(1);
      expect(await mapCanvas(home).getAttribute('aria-busy')).toBeNull();
    } finally {
      await home.close();
    }
  });

  it('pans with a drag, zooms with the wheel about the cursor, and moves with the keyboard', async () => {
    await openHome();
    const start = await settled();
    const box = (await canvas().boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 200, box.y + box.height / 2 - 120, { steps: 8 });
    await page.mouse.up();
    const dragged = await movedFrom(start);
    expect(dragged.x).toBeGreaterThan(start.x + 3);
    expect(dragged.y).toBeGreaterThan(start.y + 2);

    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -400);
    const zoomed = await movedFrom(dragged);
    expect(zoomed.zoom).toBeGreaterThan(dragged.zoom);

    await canvas().focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const keyed = await movedFrom(zoomed);
    expect(keyed.x).toBeGreaterThan(zoomed.x);
    await page.keyboard.press('0');
    expect((await movedFrom(keyed)).zoom).toBeCloseTo(0.45, 2);
  });

  it('flies to a region chosen in the side menu and closes the menu', async () => {
    await openHome();
    const layout = await (await page.request.get(`${stack.url}/api/map-layout`)).json();
    const region = layout.regions.find((r: { name: string }) => r.name === 'Maker Moorlands');
    const before = await settled();
    await page.getByRole('button', { name: 'Maker Moorlands' }).click();
    const there = await movedFrom(before);
    expect(there.zoom).toBeCloseTo(1.2, 1);
    expect(Math.abs(there.x - region.focus.x)).toBeLessThan(2);
    expect(Math.abs(there.y - region.focus.y)).toBeLessThan(2);
    await expect.poll(() => page.getByRole('button', { name: 'Maker Moorlands' }).isVisible()).toBe(false);
  });

  it('operates the zoom controls', async () => {
    await openHome();
    const start = await settled();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    const zoomedIn = await movedFrom(start);
    expect(zoomedIn.zoom).toBeGreaterThan(start.zoom);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await page.getByRole('button', { name: 'Zoom out' }).click();
    const zoomedOut = await movedFrom(zoomedIn);
    expect(zoomedOut.zoom).toBeLessThan(zoomedIn.zoom);
    await page.getByRole('button', { name: 'Reset view' }).click();
    expect((await movedFrom(zoomedOut)).zoom).toBeCloseTo(0.45, 2);
    await page.getByRole('button', { name: 'Fit all' }).click();
    // Fit all zooms out twice, 100 ms and 150 ms after the reset: the camera may rest between the two.
    await expect.poll(async () => (await view()).zoom).toBeLessThan(0.45);
    expect((await settled()).zoom).toBeLessThan(0.45);
  });

  it('lets an admin clear the map (two steps) and generate it again; visitors see "not available" meanwhile', async () => {
    await gotoLive(page, `${stack.url}/admin`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByText('Map Generated', { exact: true }).count()).toBe(1);
    expect(await page.getByTestId('map-tile-count').innerText()).toBe('8,100');
    expect(await page.getByRole('button', { name: 'Generate Map' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Clear Map Layout' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await expect.poll(() => page.getByText('No Map Found').count(), { message: 'admin sees No Map Found' }).toBe(1);

    const visitor = await stack.browser.newPage();
    await gotoLive(visitor, stack.url);
    await expect.poll(() => visitor.getByText('Map not available').count(), { message: 'visitor sees map not available' }).toBe(1);

    await page.getByRole('button', { name: 'Generate Map' }).click();
    await expect.poll(() => page.getByText('Map generated successfully! The atlas is now ready for use.').count()).toBe(1);
    await expect.poll(() => page.getByText('Map Generated', { exact: true }).count()).toBe(1);
    await visitor.reload();
    await expect.poll(() => visitor.getByText('Map not available').count()).toBe(0);
    await visitor.close();
  });
});
