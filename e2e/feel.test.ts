import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, gotoLive } from './support/stack.ts';
import { fillAndConfirmClaim, startCheckoutInPage } from './support/claim.ts';

// Not the built-in defaults: the strip's 'from $…' must be the served lowest price.
const PRICES = { basic: 1900, premium: 20000 };
const PHONE = { width: 390, height: 844 };

let stack: Stack;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  stack = await startStack({ MAP_SEED: 'pixel-atlas', TIER_PRICES_CENTS: JSON.stringify(PRICES) });
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await stack?.stop();
});

async function newPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await stack.browser.newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  // Layout shifts from the first paint on (the prerendered strip, then its numbers filling in).
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { __shifts: number[] }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) shifts.push(entry.value);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return page;
}

const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();

async function layoutShiftTotal(page: Page): Promise<number> {
  const shifts = await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts);
  return shifts.reduce((sum, value) => sum + value, 0);
}

describe('what buyers see and feel', () => {
  it('the phone home strip gives the value, live counters and the latest claims; a claim elsewhere reaches it, the celebration shows the map and links the plot page', async () => {
    const layout = (await (await fetch(`${stack.url}/api/map-layout`)).json()) as {
      tiles: Array<{ x: number; y: number; is_land: boolean }>;
    };
    const landTiles = layout.tiles.filter((tile) => tile.is_land);

    const visitor = await newPage(PHONE);
    // The prerendered first screen already has the strip, with placeholders where the numbers go.
    const firstHtml = await (await fetch(stack.url)).text();
    expect(firstHtml).toContain('data-testid="atlas-strip"');
    expect(firstHtml).toContain('Own a plot on the pixel map of the internet');

    const hydrationErrors: string[] = [];
    visitor.on('console', (message) => {
      if (message.type() === 'error' && /hydrat|did not match|error #4(18|19|22|23|25)/i.test(message.text()))
        hydrationErrors.push(message.text());
    });
    await gotoLive(visitor, stack.url);
    expect(await visitor.getByRole('heading', { level: 1 }).innerText()).toBe('Own a plot on the pixel map of the internet');
    await expect.poll(() => text(visitor, 'strip-price'), { timeout: 20_000 }).toBe('$19');
    await expect.poll(() => text(visitor, 'strip-tiles-left'), { timeout: 20_000 }).toBe(landTiles.length.toLocaleString('en-US'));
    expect(await text(visitor, 'strip-plots')).toBe('0');
    expect(await text(visitor, 'strip-ticker')).toContain('be the first!');
    // The prerendered strip is the one React hydrates: same markup, placeholders and all.
    expect(hydrationErrors).toEqual([]);

    // Small, one block above the map, and the map takes the rest of the screen below it.
    const strip = (await visitor.getByTestId('atlas-strip').boundingBox())!;
    const map = (await visitor.locator('canvas[aria-roledescription="map"]').boundingBox())!;
    console.log(
      `[feel] strip at 390x844: ${strip.height.toFixed(1)} px high; map canvas ${map.width}x${map.height.toFixed(0)} from y=${map.y.toFixed(0)}`,
    );
    expect(strip.height).toBeLessThanOrEqual(56);
    expect(map.y).toBeGreaterThanOrEqual(strip.y + strip.height - 1);
    // The value line is whole (not cut with an ellipsis) and nothing in the strip spills past the phone's width.
    expect(await visitor.getByRole('heading', { level: 1 }).evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(await visitor.getByTestId('atlas-strip').evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);

    // Someone else, in another browser, pays and claims.
    const buyer = await newPage({ width: 1280, height: 900 });
    await gotoLive(buyer, stack.url);
    const tile = landTiles.find((t) => t.x > 20 && t.y > 20)!;
    const started = await startCheckoutInPage(buyer, { tier: 'basic', x: tile.x, y: tile.y });
    const cspViolations: string[] = [];
    buyer.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    // The test checkout is payments' own page, not the app: plain goto.
    await buyer.goto(`${stack.url}${started.url}`);
    // The test checkout in the site's look: night background, and its one style block allowed by the CSP.
    expect(await buyer.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(18, 15, 31)');
    expect(await buyer.locator('body').innerText()).toMatch(/TEST MODE — no real money/i);
    // Its pixel font arrived (inlined, allowed by the CSP) and nothing on it was refused.
    expect(await buyer.evaluate(async () => (await document.fonts.load('12px "Press Start 2P"')).length)).toBeGreaterThan(0);
    expect(cspViolations).toEqual([]);
    await buyer.getByRole('button', { name: /Pay \(test mode\)/ }).click();
    await buyer.waitForURL(/\/claim\?session_id=/);
    await expect
      .poll(() => buyer.getByRole('heading', { name: 'Payment Successful! Claim Your Plot' }).count(), { timeout: 15_000 })
      .toBe(1);
    // The paid position, on a small map.
    await expect
      .poll(() => buyer.getByRole('img', { name: `Map: your plot's position at (${tile.x}, ${tile.y})` }).count(), { timeout: 15_000 })
      .toBe(1);
    await fillAndConfirmClaim(buyer, { name: 'Felt Right', message: 'Bought on the live map', avatarFill: '#a855f7' });

    // The celebration: the new plot on the map (the camera flies to it), and a way on to the plot page.
    await expect.poll(() => buyer.getByRole('heading', { name: 'Plot Claimed!' }).count(), { timeout: 15_000 }).toBe(1);
    const preview = buyer.getByRole('img', { name: `Map: your new plot at (${tile.x}, ${tile.y})` });
    await expect.poll(() => preview.count(), { timeout: 5_000 }).toBe(1);
    const previewCanvas = preview.locator('canvas').first();
    await expect
      .poll(async () => Math.abs(Number(await previewCanvas.getAttribute('data-center-x')) - (tile.x + 0.5)), { timeout: 4_000 })
      .toBeLessThan(0.01);
    const viewPlot = buyer.getByRole('link', { name: 'Continue to Your Plot' });
    const plotPath = await viewPlot.getAttribute('href');
    expect(plotPath).toMatch(/^\/plot\/[0-9a-f-]{36}$/);
    await viewPlot.click();
    await buyer.waitForURL(`${stack.url}${plotPath}`);
    // The plot page shows the plot and its neighbours on a map too.
    await expect.poll(() => buyer.getByRole('img', { name: /^Map of Felt Right's plot/ }).count(), { timeout: 15_000 }).toBe(1);

    // Back on the phone, without a reload: the live stream brought the claim into the strip.
    await expect
      .poll(() => visitor.getByTestId('strip-ticker').getByRole('link', { name: 'Felt Right' }).count(), { timeout: 15_000 })
      .toBe(1);
    expect(await text(visitor, 'strip-plots')).toBe('1');
    expect(await text(visitor, 'strip-tiles-left')).toBe((landTiles.length - 1).toLocaleString('en-US'));

    const cls = await layoutShiftTotal(visitor);
    console.log(`[feel] home at 390x844: layout shift total ${cls.toFixed(4)}`);
    expect(cls).toBeLessThanOrEqual(0.05);

    // The plot page on a phone, from the gateway's server-rendered body to the mounted preview: its box was reserved.
    const reader = await newPage(PHONE);
    await gotoLive(reader, `${stack.url}${plotPath}`);
    await expect.poll(() => reader.getByRole('img', { name: /^Map of Felt Right's plot/ }).count(), { timeout: 15_000 }).toBe(1);
    // Whatever could still move the layout has arrived: the fonts and every image on the page, decoded.
    await reader.evaluate(async () => {
      await document.fonts.ready;
      await Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined)));
    });
    const plotCls = await layoutShiftTotal(reader);
    console.log(`[feel] /plot/:id at 390x844: layout shift total ${plotCls.toFixed(4)}`);
    expect(plotCls).toBeLessThanOrEqual(0.05);
  }, 180_000);
});
