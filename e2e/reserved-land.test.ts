import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, gotoLive } from './support/stack.ts';
import { startCheckoutInPage } from './support/claim.ts';
import { avatarFile, landNearCentre, mapCanvas, openHomeWithAppHeld, screenPointOfTile } from './support/map.ts';

let stack: Stack;
let land: Array<{ x: number; y: number }> = [];

beforeAll(async () => {
  stack = await startStack({ MAP_SEED: 'pixel-atlas' });
});

afterAll(async () => {
  await stack?.stop();
});

/**
 * Home, with the map ready and the reserved land loaded (the request the map makes on its own): land
 * tiles nearest the centre of the first view come first, so they are in view and clear of the panels.
 */
async function openHome(page: Page) {
  const reservedLoaded = page.waitForResponse((response) => response.url().endsWith('/api/reserved-footprints') && response.ok());
  await gotoLive(page, stack.url);
  await reservedLoaded;
  await expect.poll(async () => Number(await mapCanvas(page).getAttribute('data-zoom'))).toBeGreaterThan(0);
  // Corners of 2×2 land squares, so a featured hold or plot fits.
  if (land.length === 0) land = await landNearCentre(page, stack.url, 2);
}

/**
 * Clicks a map tile. A single click acts only once the double-click window has passed; every caller then waits for
 * what the click shows (a notice or the popup), so two clicks never fall in one window.
 */
async function clickTile(page: Page, tile: { x: number; y: number }) {
  const point = await screenPointOfTile(page, tile.x, tile.y);
  await page.mouse.click(point.x, point.y);
}

/** Two tiles apart at least, so one test's footprint never touches another's. */
const farFrom = (used: Array<{ x: number; y: number }>) =>
  land.find((t) => used.every((u) => Math.abs(t.x - u.x) >= 3 || Math.abs(t.y - u.y) >= 3))!;

describe('reserved land on the map', () => {
  const used: Array<{ x: number; y: number }> = [];

  it('a tile someone is paying for is refused at the click with the reason, in another browser; the claim popup does not open', async () => {
    const payer = await stack.newPage();
    await openHome(payer);
    // A spot whose left neighbour is land too: a 2×2 plot there would reach into the hold.
    const tile = land.find((t) => land.some((l) => l.x === t.x - 1 && l.y === t.y))!;
    used.push(tile, { x: tile.x - 1, y: tile.y });
    // The payer starts a 2×2 checkout and does not pay (yet): the footprint is held.
    await startCheckoutInPage(payer, { tier: 'featured', x: tile.x, y: tile.y });

    const visitor = await stack.newPage();
    await openHome(visitor);
    // The lower-right tile of the held 2×2 footprint: all of it is reserved, not only its corner.
    const inside = { x: tile.x + 1, y: tile.y + 1 };
    const point = await screenPointOfTile(visitor, inside.x, inside.y);
    await visitor.mouse.move(point.x, point.y);
    await expect.poll(() => visitor.getByRole('tooltip').getByText('Reserved while someone pays').count()).toBe(1);

    await clickTile(visitor, inside);
    await expect.poll(() => visitor.getByText('Tile Reserved').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(
      await visitor.getByText('This tile is reserved while someone pays. Try again in a few minutes or choose another tile.').count(),
    ).toBeGreaterThan(0);
    expect(await visitor.getByRole('dialog', { name: 'Claim This Tile' }).count()).toBe(0);

    // Free land beside it still opens the popup, and a 2×2 footprint reaching into the hold says so.
    const beside = { x: tile.x - 1, y: tile.y };
    await clickTile(visitor, beside);
    const popup = visitor.getByRole('dialog', { name: 'Claim This Tile' });
    await expect.poll(() => popup.getByText(`Position (${beside.x}, ${beside.y})`).count()).toBe(1);
    await popup.getByRole('radio', { name: /Featured/ }).click();
    await expect.poll(() => popup.getByText(/reserved while someone pays/).count()).toBe(1);
  });

  it('a tap on held land made before the app loaded is refused with the reason once it has: the boot drew the hold', async () => {
    const payer = await stack.newPage();
    await openHome(payer);
    const tile = farFrom(used);
    used.push(tile);
    await startCheckoutInPage(payer, { tier: 'basic', x: tile.x, y: tile.y });

    const visitor = await stack.newPage();
    // The boot asks for the reserved land once its first frame is drawn, while the app's script is still held back.
    const reservedAnswered = visitor.waitForResponse((response) => response.url().endsWith('/api/reserved-footprints') && response.ok());
    const releaseApp = await openHomeWithAppHeld(visitor, stack.url);
    expect(await (await reservedAnswered).json()).toContainEqual(expect.objectContaining({ x: tile.x, y: tile.y, reason: 'held' }));
    await clickTile(visitor, tile);
    await expect.poll(() => mapCanvas(visitor).getAttribute('aria-busy')).toBe('true');
    expect(await visitor.evaluate(() => document.documentElement.dataset.app)).toBeUndefined();

    releaseApp();
    await expect.poll(() => visitor.getByText('Tile Reserved').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await visitor.getByRole('dialog', { name: 'Claim This Tile' }).count()).toBe(0);
    expect(await mapCanvas(visitor).getAttribute('aria-busy')).toBeNull();
  });

  it('a plot under review is refused at the click as under review, without naming it', async () => {
    const owner = await stack.newPage();
    await openHome(owner);
    const tile = farFrom(used);
    used.push(tile);
    // Buy and pay in the owner's browser, then claim with a name the content screen holds for review.
    const { url, sessionId } = await startCheckoutInPage(owner, { tier: 'basic', x: tile.x, y: tile.y });
    // The test checkout is the payments service's own page, not the app: a plain navigation.
    await owner.goto(`${stack.url}${url}`);
    await owner.getByRole('button', { name: /Pay \(test mode\)/ }).click();
    await owner.waitForURL(/\/claim\?session_id=/);
    const avatar = await avatarFile(owner, { fill: '#a855f7', width: 32, height: 32 });
    const claimed = await owner.evaluate(
      async ({ sessionId, x, y, avatarUrl }) => {
        const response = await fetch('/api/claim-plot', {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            display_name: 'Drug Deals Daily',
            message: 'Fresh every day',
            zone: 'nexus',
            x,
            y,
            stripeSessionId: sessionId,
            tier: 'basic',
            avatar_url: avatarUrl,
          }),
        });
        return { status: response.status, json: (await response.json()) as { warning?: string } };
      },
      { sessionId, x: tile.x, y: tile.y, avatarUrl: `data:image/png;base64,${avatar.buffer.toString('base64')}` },
    );
    expect(claimed.status).toBe(201);
    expect(claimed.json.warning).toBeTruthy();

    const visitor = await stack.newPage();
    await openHome(visitor);
    const reserved = await (await visitor.request.get(`${stack.url}/api/reserved-footprints`)).text();
    expect(reserved).toContain(`{"x":${tile.x},"y":${tile.y},"size":1,"reason":"review"}`);
    expect(reserved).not.toContain('Drug Deals Daily');
    await clickTile(visitor, tile);
    await expect.poll(() => visitor.getByText('Tile Under Review').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await visitor.getByRole('dialog', { name: 'Claim This Tile' }).count()).toBe(0);
    expect(await visitor.getByText('Drug Deals Daily').count()).toBe(0);
  });
});
