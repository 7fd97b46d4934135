import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, gotoLive } from './support/stack.ts';
import { claimThroughApi } from './support/claim.ts';
import { cameraAtRest, mapCanvas, mapView } from './support/map.ts';

/**
 * The buyer's first screens: a 390×844 phone sees the map, not panels over it, and
 * at 1366×768 the claim popup, notifications, double-click and Escape behave.
 */
let stack: Stack;
let layout: { tiles: Array<{ x: number; y: number; is_land: boolean }>; regions: Array<{ name: string; focus: { x: number; y: number } }> };
const plots: Array<{ x: number; y: number; size: number; name: string }> = [];

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
const overlaps = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

const isLand = (x: number, y: number, size = 1) => {
  for (let dy = 0; dy < size; dy++)
    for (let dx = 0; dx < size; dx++) if (!layout.tiles.some((t) => t.x === x + dx && t.y === y + dy && t.is_land)) return false;
  return true;
};
const isFree = (x: number, y: number) => !plots.some((p) => x >= p.x && x < p.x + p.size && y >= p.y && y < p.y + p.size);

beforeAll(async () => {
  stack = await startStack({ MAP_SEED: 'pixel-atlas' });
  const apiContext = await stack.browser.newContext();
  const request = apiContext.request;
  layout = await (await request.get(`${stack.url}/api/map-layout`)).json();
  // A plot far from the centre, so Find Plots has somewhere to fly.
  for (const [size, from, name] of [[1, { x: 70, y: 70 }, 'South East Shop']] as const) {
    let spot: { x: number; y: number } | null = null;
    for (let r = 0; r < 30 && !spot; r++)
      for (let d = 0; d <= r && !spot; d++) if (isLand(from.x + d, from.y + r - d, size)) spot = { x: from.x + d, y: from.y + r - d };
    if (!spot) throw new Error(`no land for ${name}`);
    await claimThroughApi(request, stack.url, spot, {
      display_name: name,
      message: 'Somewhere on the atlas',
      link: 'https://atlas.example/',
    });
    plots.push({ ...spot, size, name });
  }
  await apiContext.close();
});

afterAll(async () => {
  await stack?.stop();
});

const settled = (page: Page) => cameraAtRest(page);

/**
 * The claim popup (or sheet) a tap or click on `tile` opened, once it has come in (no animation running) and the map
 * has panned the tile clear of it and come to rest.
 */
async function claimPopupSettled(page: Page, tile: { x: number; y: number }) {
  const popup = page.getByRole('dialog', { name: 'Claim This Tile' });
  await expect.poll(() => popup.count()).toBe(1);
  await expect
    .poll(async () => {
      const still = await popup.evaluate((el) => el.getAnimations({ subtree: true }).every((a) => a.playState !== 'running'));
      const box = await popup.boundingBox();
      if (!still || !box) return false;
      await settled(page);
      const sheet = { left: box.x, top: box.y, right: box.x + box.width, bottom: box.y + box.height };
      return !overlaps(await footprintRect(page, tile.x, tile.y), sheet);
    })
    .toBe(true);
  return popup;
}

async function openHome(page: Page): Promise<void> {
  await gotoLive(page, stack.url);
  await expect.poll(async () => (await mapView(page)).zoom, { timeout: 20_000 }).toBeGreaterThan(0);
  await settled(page);
}

/** Where a footprint is on screen (client px), from the camera the map publishes on its canvas. */
async function footprintRect(page: Page, x: number, y: number, size = 1): Promise<Rect> {
  const box = (await mapCanvas(page).boundingBox())!;
  const { zoom, x: cx, y: cy } = await mapView(page);
  const left = box.x + box.width / 2 + (x - cx) * TILE_SIZE_PX * zoom;
  const top = box.y + box.height / 2 + (y - cy) * TILE_SIZE_PX * zoom;
  return { left, top, right: left + size * TILE_SIZE_PX * zoom, bottom: top + size * TILE_SIZE_PX * zoom };
}

async function rectOf(page: Page, selector: string): Promise<Rect> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    });
}

/**
 * A free land tile whose centre shows near `near` (client px), inside the canvas, not under the map's chrome
 * and away from region labels (a click on a label opens the region's card instead).
 */
async function landTileNear(
  page: Page,
  near: { x: number; y: number },
): Promise<{ x: number; y: number; point: { x: number; y: number } }> {
  const box = (await mapCanvas(page).boundingBox())!;
  const { zoom, x: cx, y: cy } = await mapView(page);
  const toScreen = (tx: number, ty: number) => ({
    x: box.x + box.width / 2 + (tx - cx) * TILE_SIZE_PX * zoom,
    y: box.y + box.height / 2 + (ty - cy) * TILE_SIZE_PX * zoom,
  });
  const chrome = await page
    .locator('[data-map-occluder]')
    .evaluateAll((els) =>
      els
        .map((el) => el.getBoundingClientRect())
        .map((r) => ({ left: r.left - 8, top: r.top - 8, right: r.right + 8, bottom: r.bottom + 8 })),
    );
  const labels = layout.regions.map((region) => toScreen(region.focus.x + 0.5, region.focus.y + 0.5));
  const candidates = layout.tiles
    .filter((t) => t.is_land && isFree(t.x, t.y))
    .map((t) => ({ x: t.x, y: t.y, point: toScreen(t.x + 0.5, t.y + 0.5) }))
    .filter(
      ({ point }) => point.x > box.x + 20 && point.x < box.x + box.width - 20 && point.y > box.y + 20 && point.y < box.y + box.height - 20,
    )
    .filter(({ point }) => !chrome.some((r) => point.x > r.left && point.x < r.right && point.y > r.top && point.y < r.bottom))
    .filter(({ point }) => labels.every((label) => Math.abs(point.x - label.x) > 140 || Math.abs(point.y - label.y) > 30))
    .sort((a, b) => Math.hypot(a.point.x - near.x, a.point.y - near.y) - Math.hypot(b.point.x - near.x, b.point.y - near.y));
  if (!candidates[0]) throw new Error('no free land tile in view');
  return candidates[0];
}

/**
 * The share of the map canvas (its part inside the window) that shows the map: sampled every 4 px, a point
 * counts as covered when the topmost element there that paints anything (a background, a border, text,
 * an image) is not one of the map's canvases. Pointer-events are forced on so pass-through hints count too.
 */
async function visibleMapShare(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.querySelector('canvas[aria-roledescription="map"]')!;
    const mapLayers = new Set<Element>(Array.from(canvas.parentElement!.querySelectorAll(':scope > canvas')));
    const style = document.createElement('style');
    style.textContent = '* { pointer-events: auto !important; }';
    document.head.append(style);
    const paints = (el: Element) => {
      const css = getComputedStyle(el);
      if (css.visibility === 'hidden' || Number(css.opacity) === 0) return false;
      const background = css.backgroundColor.match(/[\d.]+/g)?.map(Number) ?? [];
      if (background.length === 4 ? background[3]! > 0 : background.length === 3) return true;
      if (parseFloat(css.borderTopWidth) > 0 && css.borderTopStyle !== 'none') return true;
      if (['IMG', 'SVG', 'svg', 'CANVAS', 'VIDEO'].includes(el.tagName)) return true;
      return Array.from(el.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim() !== '');
    };
    const frame = canvas.getBoundingClientRect();
    const top = Math.max(0, frame.top);
    const bottom = Math.min(innerHeight, frame.bottom);
    let total = 0;
    let clear = 0;
    for (let y = top + 2; y < bottom; y += 4) {
      for (let x = frame.left + 2; x < frame.right; x += 4) {
        total++;
        const first = document.elementsFromPoint(x, y).find((el) => mapLayers.has(el) || paints(el));
        if (first && mapLayers.has(first)) clear++;
      }
    }
    style.remove();
    return clear / total;
  });
}

async function toastRect(page: Page): Promise<Rect> {
  await expect.poll(() => page.locator('[data-toast-viewport] [data-state="open"]').count()).toBe(1);
  return rectOf(page, '[data-toast-viewport] [data-state="open"]');
}

describe('the home screen on a 390×844 phone', () => {
  let context: BrowserContext;
  let phone: Page;

  beforeAll(async () => {
    context = await stack.browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 1,
    });
    phone = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('shows the map: regions collapsed, opaque compact chrome, at least 85 % of the map visible at load', async () => {
    await openHome(phone);
    const regions = phone.getByRole('button', { name: /ATLAS REGIONS/ });
    expect(await regions.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.getByRole('button', { name: 'Knowledge Knolls' }).count()).toBe(0);
    expect(await phone.getByText('Touch Controls').isVisible()).toBe(true);
    expect(await phone.getByRole('button', { name: /More content below/ }).isVisible()).toBe(true);
    // No see-through panels: every piece of chrome over the map has an opaque background (the zoom toolbar is its buttons).
    const backgrounds = await phone
      .locator('[data-map-occluder]:not([role="toolbar"]), [data-map-occluder][role="toolbar"] button')
      .evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundColor));
    expect(backgrounds.length).toBeGreaterThanOrEqual(8);
    for (const background of backgrounds) expect(background).toMatch(/^rgb\(/);

    const share = await visibleMapShare(phone);
    console.log(`phone 390×844: ${(share * 100).toFixed(1)} % of the map canvas visible at load`);
    expect(share).toBeGreaterThanOrEqual(0.85);
  });

  it('retires the touch guide at the first gesture (a one-finger pan), for the rest of the session', async () => {
    await openHome(phone);
    expect(await phone.getByText('Touch Controls').count()).toBe(1);
    const before = await mapView(phone);
    const box = (await mapCanvas(phone).boundingBox())!;
    const cdp = await context.newCDPSession(phone);
    const at = (dx: number) => [{ x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (let step = 1; step <= 6; step++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(-step * 15) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
    expect((await cameraAtRest(phone, { awayFrom: before })).x).toBeGreaterThan(before.x);
    await expect.poll(() => phone.getByText('Touch Controls').count()).toBe(0);
    // The guide's choice is made as the map mounts, which openHome has waited for (the live map's camera).
    await openHome(phone);
    expect(await phone.getByText('Touch Controls').count()).toBe(0);
  });

  it('flies a plot chosen in Find Plots clear of every panel, the open regions menu included', async () => {
    await openHome(phone);
    // Opened, the menu covers the left of the screen down past its middle: where a centred plot would land.
    await phone.getByRole('button', { name: /ATLAS REGIONS/ }).click();
    const menu = await rectOf(phone, 'nav[aria-label="Atlas regions"]');
    const canvasBox = (await mapCanvas(phone).boundingBox())!;
    expect(menu.right).toBeGreaterThan(canvasBox.x + canvasBox.width / 2);
    expect(menu.bottom).toBeGreaterThan(canvasBox.y + canvasBox.height / 2);

    await phone.getByRole('button', { name: /^Find Plots/ }).click();
    const dialog = phone.getByRole('dialog', { name: /Claimed Plots/ });
    await dialog.getByRole('link', { name: /South East Shop/ }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await settled(phone);
    expect((await mapView(phone)).zoom).toBeCloseTo(1.5, 2);
    const plot = plots.find((p) => p.name === 'South East Shop')!;
    const footprint = await footprintRect(phone, plot.x, plot.y, plot.size);
    expect(footprint.left).toBeGreaterThanOrEqual(canvasBox.x);
    expect(footprint.right).toBeLessThanOrEqual(canvasBox.x + canvasBox.width);
    expect(footprint.top).toBeGreaterThanOrEqual(canvasBox.y);
    expect(footprint.bottom).toBeLessThanOrEqual(canvasBox.y + canvasBox.height);
    const chrome = await phone
      .locator('[data-map-occluder]')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as Rect));
    expect(chrome.length).toBeGreaterThanOrEqual(4);
    for (const panel of chrome) expect(overlaps(footprint, panel), JSON.stringify({ footprint, panel })).toBe(false);
  });

  it('shows a notification at the top, clear of the zoom controls, and keeps the chosen tile above the claim sheet', async () => {
    await openHome(phone);
    const tile = await landTileNear(phone, { x: 195, y: 600 });
    await phone.touchscreen.tap(tile.point.x, tile.point.y);
    const sheet = await claimPopupSettled(phone, tile);
    const sheetBox = (await sheet.boundingBox())!;
    const tileRect = await footprintRect(phone, tile.x, tile.y);
    expect(tileRect.bottom).toBeLessThanOrEqual(sheetBox.y);
    expect(tileRect.top).toBeGreaterThanOrEqual((await mapCanvas(phone).boundingBox())!.y);

    await sheet.getByLabel('Display name').fill('Phone Tester');
    await sheet.getByLabel('Message').fill('Hello from a phone');
    await sheet.getByRole('button', { name: /PAY & CLAIM/ }).click();
    const toast = await toastRect(phone);
    expect(toast.top).toBeLessThan(100);
    expect(overlaps(toast, await rectOf(phone, '[role="toolbar"][aria-label="Map controls"]'))).toBe(false);
    await phone.keyboard.press('Escape');
    await expect.poll(() => sheet.count()).toBe(0);
  });
});

describe('the home screen at 1366×768', () => {
  let page: Page;

  beforeAll(async () => {
    page = await stack.browser.newPage({ viewport: { width: 1366, height: 768 } });
  });

  it('opens the regions menu, and a double-click on land zooms in without opening the claim popup', async () => {
    await openHome(page);
    expect(await page.getByRole('button', { name: /ATLAS REGIONS/ }).getAttribute('aria-expanded')).toBe('true');
    const before = await mapView(page);
    const tile = await landTileNear(page, { x: 683, y: 420 });
    // When each dialog opened from here on (a popup the double-click opened and closed again counts too).
    await page.evaluate(() => {
      const openedAt: number[] = [];
      Object.assign(window, { dialogsOpenedAt: openedAt });
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of Array.from(record.addedNodes))
            if (node instanceof Element && (node.matches('[role="dialog"]') || node.querySelector('[role="dialog"]')))
              openedAt.push(performance.now());
      }).observe(document.body, { childList: true, subtree: true });
    });
    const dialogsOpenedAt = () => page.evaluate(() => (window as unknown as { dialogsOpenedAt: number[] }).dialogsOpenedAt);
    await page.mouse.dblclick(tile.point.x, tile.point.y);
    const after = await cameraAtRest(page, { awayFrom: before });
    expect(after.zoom).toBeGreaterThan(before.zoom * 1.4);
    // A single click still opens the popup (once no second click follows); the double-click opened none before it.
    const single = await landTileNear(page, { x: 683, y: 420 });
    const clickedAt = await page.evaluate(() => performance.now());
    await page.mouse.click(single.point.x, single.point.y);
    await expect.poll(() => page.getByRole('dialog', { name: 'Claim This Tile' }).count()).toBe(1);
    expect((await dialogsOpenedAt()).filter((at) => at < clickedAt)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('shows PAY & CLAIM without scrolling and keeps the chosen tile clear of the claim popup', async () => {
    await openHome(page);
    // A tile right of the centre: where a dialog would sit.
    const tile = await landTileNear(page, { x: 950, y: 420 });
    await page.mouse.click(tile.point.x, tile.point.y);
    const dialog = await claimPopupSettled(page, tile);

    const pay = (await dialog.getByRole('button', { name: /PAY & CLAIM/ }).boundingBox())!;
    expect(pay.y).toBeGreaterThanOrEqual(0);
    expect(pay.y + pay.height).toBeLessThanOrEqual(768);
    const scroll = await dialog.evaluate((el) => ({ scrollTop: el.scrollTop, overflow: el.scrollHeight - el.clientHeight }));
    expect(scroll).toEqual({ scrollTop: 0, overflow: 0 });

    const dialogBox = (await dialog.boundingBox())!;
    const tileRect = await footprintRect(page, tile.x, tile.y);
    expect(
      overlaps(tileRect, {
        left: dialogBox.x,
        top: dialogBox.y,
        right: dialogBox.x + dialogBox.width,
        bottom: dialogBox.y + dialogBox.height,
      }),
    ).toBe(false);
    expect(tileRect.left).toBeGreaterThanOrEqual(0);
    expect(tileRect.top).toBeGreaterThanOrEqual((await mapCanvas(page).boundingBox())!.y);
    // ...nor under the open regions menu.
    expect(overlaps(tileRect, await rectOf(page, 'nav[aria-label="Atlas regions"]'))).toBe(false);
  });

  it('closes the claim popup with Escape while a notification shows, and the notification is clear of the zoom controls', async () => {
    await openHome(page);
    const tile = await landTileNear(page, { x: 683, y: 420 });
    await page.mouse.click(tile.point.x, tile.point.y);
    const dialog = page.getByRole('dialog', { name: 'Claim This Tile' });
    await expect.poll(() => dialog.count()).toBe(1);
    await dialog.getByLabel('Display name').fill('Desk Tester');
    await dialog.getByLabel('Message').fill('Hello from a desk');
    // No avatar yet: the popup says so in a toast, and keeps the focus.
    await dialog.getByRole('button', { name: /PAY & CLAIM/ }).click();
    const toast = await toastRect(page);
    expect(overlaps(toast, await rectOf(page, '[role="toolbar"][aria-label="Map controls"]'))).toBe(false);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});
