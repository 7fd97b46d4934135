import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { regionSlug, UNCHARTED_REGION } from '@pixel-atlas/contracts/region-catalog';
import type { Plot } from '@pixel-atlas/contracts/plots';
import { afterAll, afterEach, assert, beforeAll, describe, expect, it } from 'vitest';
import { gotoLive, signInAdmin, startStack, type Stack } from './support/stack.ts';
import { ONE_PIXEL_PNG_BYTES, claimThroughApi, paidCheckout } from './support/claim.ts';
import { cameraAtRest, mapCanvas, scrolledToTopAndStill, mapView, screenPointOfTile } from './support/map.ts';

/*
 * axe-core on every route and every dialog, at the two sizes buyers use (a 390×844 phone and a 1366×768
 * laptop). A serious or critical violation fails the test, with the rule, the elements and axe's summary.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = [
  { name: '1366x768', viewport: { width: 1366, height: 768 }, touch: false },
  { name: '390x844', viewport: { width: 390, height: 844 }, touch: true },
] as const;
/** What a careless or hostile buyer can put in the review queue: one word as long as the schema allows. */
const LONG_WORD = 'Supercalifragilistic'.repeat(7);
const LONG_LINK = `https://very-long-link.example/${'unbroken'.repeat(200)}`;

let stack: Stack;
let land: Array<{ x: number; y: number }> = [];
let plotId: string;
let manageToken: string;
const PLOT_NAME = 'Ada Pixel';
const contexts: BrowserContext[] = [];
afterEach(async () => {
  // Pages with the live map keep drawing: close each test's browser before the next one starts.
  while (contexts.length > 1)
    await contexts
      .pop()!
      .close()
      .catch(() => {});
});

interface Finding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** Until no animation runs (a dialog fading in has half its contrast for a moment). */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
    undefined,
    {
      timeout: 5_000,
    },
  );
}

async function seriousViolations(page: Page): Promise<Finding[]> {
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // A page that never answers fails here with its address rather than as a bare test timeout.
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`axe did not finish on ${page.url()}`)), 20_000);
  });
  try {
    return await Promise.race([runAxe(page), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function runAxe(page: Page): Promise<Finding[]> {
  return page.evaluate(async () => {
    type AxeRun = (
      context: Document | { exclude: string[][] },
      options: object,
    ) => Promise<{
      violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }>;
    }>;
    const axe = (window as unknown as { axe: { run: AxeRun } }).axe;
    // While a modal dialog is open, Radix hides everything else from assistive technology
    // (data-aria-hidden) and its backdrop dims it: that part was checked before the dialog opened.
    const context = document.querySelector('[data-aria-hidden="true"]') ? { exclude: [['[data-aria-hidden="true"]']] } : document;
    const result = await axe.run(context, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact ?? '',
        help: violation.help,
        nodes: violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')} :: ${(node.failureSummary ?? '').replace(/\s+/g, ' ')}`),
      }));
  });
}

async function expectAccessible(page: Page, what: string): Promise<void> {
  const findings = await seriousViolations(page);
  expect(findings, `${what}: ${JSON.stringify(findings, null, 2)}`).toEqual([]);
}

/** No sideways scrolling of the page itself (a phone must never need it). */
async function expectNoHorizontalScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what} is wider than the screen by ${overflow}px`).toBeLessThanOrEqual(0);
}

async function newPage(size: (typeof VIEWPORTS)[number]): Promise<Page> {
  // bypassCSP: axe is injected as a script the site's CSP (rightly) does not allow.
  const context = await stack.browser.newContext({ viewport: size.viewport, hasTouch: size.touch, deviceScaleFactor: 1, bypassCSP: true });
  contexts.push(context);
  return context.newPage();
}

async function openHome(page: Page): Promise<void> {
  await gotoLive(page, stack.url);
  await expect.poll(async () => Number(await mapCanvas(page).getAttribute('data-zoom'))).toBeGreaterThan(0);
}

/** Free land nearest the first view's centre, where no panel covers it. */
async function freeTileNearCentre(page: Page): Promise<{ x: number; y: number }> {
  const canvas = mapCanvas(page);
  const centerX = Number(await canvas.getAttribute('data-center-x'));
  const centerY = Number(await canvas.getAttribute('data-center-y'));
  const plots = (await (await page.request.get(`${stack.url}/api/plots`)).json()) as Array<{ x: number; y: number }>;
  const taken = (tile: { x: number; y: number }) => plots.some((plot) => Math.abs(plot.x - tile.x) <= 2 && Math.abs(plot.y - tile.y) <= 2);
  const [nearest] = [...land]
    .filter((tile) => !taken(tile))
    .sort((a, b) => Math.hypot(a.x - centerX, a.y - centerY) - Math.hypot(b.x - centerX, b.y - centerY));
  if (!nearest) throw new Error('no free land tile on the map');
  return nearest;
}

beforeAll(async () => {
  stack = await startStack({ MAP_SEED: 'pixel-atlas' });
  const setup = await stack.browser.newContext();
  contexts.push(setup);
  const layout = (await (await setup.request.get(`${stack.url}/api/map-layout`)).json()) as {
    tiles: Array<{ x: number; y: number; is_land: boolean }>;
  };
  land = layout.tiles.filter((tile) => tile.is_land);
  const [adaSpot, longSpot] = land.filter((tile) => tile.x >= 55 && tile.y >= 55 && tile.x % 4 === 0 && tile.y % 4 === 0);
  assert(adaSpot && longSpot, 'two land tiles in the south-east for the setup plots');
  ({ plotId, manageToken } = await claimThroughApi(setup.request, stack.url, adaSpot, {
    display_name: PLOT_NAME,
    message: 'Tiny worlds, drawn by hand',
    link: 'https://ada.example/',
  }));
  // A plot with one very long word and a very long link, flagged by a visitor: it sits in the admin's queue.
  const { plotId: longId } = await claimThroughApi(setup.request, stack.url, longSpot, {
    display_name: 'Longwinded',
    message: LONG_WORD,
    link: LONG_LINK,
  });
  expect((await setup.request.post(`${stack.url}/api/flag-plot`, { data: { plotId: longId } })).ok()).toBe(true);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await stack?.stop();
});

describe.each(VIEWPORTS)('axe at $name', (size) => {
  it('finds no serious or critical violation on any route', async () => {
    const page = await newPage(size);
    const unclaimed = land.filter((tile) => tile.x >= 60 && tile.y >= 70 && tile.x % 3 === 0 && tile.y % 3 === 0);
    const tile = unclaimed[VIEWPORTS.indexOf(size)];
    assert(tile, 'an unclaimed land tile per viewport');
    const sessionId = await paidCheckout(page.request, stack.url, tile);
    const { region_name: regionName } = (await (await page.request.get(`${stack.url}/api/plots/${plotId}`)).json()) as Plot;
    const regionPage = `/regions/${regionName ? regionSlug(regionName) : UNCHARTED_REGION.slug}`;
    const routes: Array<[string, number, string]> = [
      ['/', 200, 'Claim Your Place in'],
      ['/claim', 200, 'Missing Session ID'],
      [`/claim?session_id=${sessionId}`, 200, 'Payment Successful! Claim Your Plot'],
      [`/plot/${plotId}`, 200, `${PLOT_NAME}'s Plot`],
      [`/user/${encodeURIComponent(PLOT_NAME)}`, 200, `${PLOT_NAME}'s Atlas`],
      ['/regions', 200, 'Regions of the Atlas'],
      [regionPage, 200, PLOT_NAME],
      [`/manage/${manageToken}`, 200, `Manage ${PLOT_NAME}'s Plot`],
      ['/about', 200, 'How it works'],
      ['/faq', 200, 'Still have questions?'],
      ['/contact', 200, 'Contact Us'],
      ['/owner-link', 200, 'Lost your owner link?'],
      ['/terms', 200, '99.9%'],
      ['/privacy', 200, '7 years'],
      ['/demo', 200, 'Confirm your plot details'],
      ['/admin', 200, 'Admin sign in'],
      ['/no/such/page', 404, '404 Page Not Found'],
    ];
    for (const [path, status, text] of routes) {
      const response = await gotoLive(page, `${stack.url}${path}`);
      expect(response?.status(), path).toBe(status);
      await expect.poll(() => page.locator('main').innerText(), { message: `${path} shows '${text}'` }).toContain(text);
      await expectAccessible(page, `${path} at ${size.name}`);
      await expectNoHorizontalScroll(page, `${path} at ${size.name}`);
    }

    // The owner's question before a new link (Cancel keeps the link the other tests use).
    await gotoLive(page, `${stack.url}/manage/${manageToken}`);
    await page.getByRole('button', { name: 'Make a New Link' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Make a New Link?' });
    await expect.poll(() => ask.count()).toBe(1);
    await expectAccessible(page, `Make a New Link? at ${size.name}`);
    await page.screenshot({ path: new URL(`../.data/screenshots/new-link-question-${size.name}.png`, import.meta.url).pathname });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => ask.count()).toBe(0);
  });

  it('finds none on /admin signed in, and the queue with long unbroken text fits the screen', async () => {
    const page = await newPage(size);
    await signInAdmin(page, stack.url);
    const item = page.getByRole('article', { name: 'Flagged plot Longwinded' });
    await expect.poll(() => item.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByText('Map Generated').count()).toBe(1);
    await expectAccessible(page, `/admin signed in at ${size.name}`);
    await expectNoHorizontalScroll(page, `/admin signed in at ${size.name}`);
    const card = (await item.boundingBox())!;
    expect(card.x + card.width).toBeLessThanOrEqual(size.viewport.width);
  });

  it('finds none in any dialog: tier guidance, claim popup (with the cropper and content review), Find Plots, profile popup, share menu, flag', async () => {
    const page = await newPage(size);
    await openHome(page);

    // Tier guidance, from a tier card.
    await page.getByRole('button', { name: 'Select Basic Plot' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Basic Tier Selected!' }).count()).toBe(1);
    await expectAccessible(page, `tier guidance at ${size.name}`);
    await page.getByRole('button', { name: "I'LL SELECT ON THE MAP" }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => scrolledToTopAndStill(page)).toBe(true); // the page scrolls back up to the map

    // The claim popup on a land tile, then with the cropper open, then the content review dialog.
    const tile = await freeTileNearCentre(page);
    const point = await screenPointOfTile(page, tile.x, tile.y);
    await page.mouse.click(point.x, point.y);
    const popup = page.getByRole('dialog', { name: 'Claim This Tile' });
    await expect.poll(() => popup.getByText(`Position (${tile.x}, ${tile.y})`).count()).toBe(1);
    await expectAccessible(page, `claim popup at ${size.name}`);
    await page.getByLabel('Display name').fill('Kill Joy');
    await page.getByLabel('Link (optional)').fill('https://exa mple.com');
    await page.getByLabel('Message').focus();
    await expect.poll(() => popup.getByText('Please enter a valid http or https URL').count()).toBe(1);
    await page.getByLabel('Link (optional)').fill('https://killjoy.example/');
    // A text file renamed .png, and a PNG cut short (right signature, no image): refused before the cropper.
    const png = ONE_PIXEL_PNG_BYTES;
    for (const [name, buffer] of [
      ['notes.png', Buffer.from('just some notes, not pixels')],
      ['cut.png', png.subarray(0, 20)],
    ] as const) {
      await page.setInputFiles('input[type=file]', { name, mimeType: 'image/png', buffer });
      await expect
        .poll(() => page.getByText(`"${name}" is not a JPG, PNG or GIF image.`, { exact: false }).count(), { message: name })
        .toBe(1);
      expect(await page.getByText(/Failed to save avatar/).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Save Avatar' }).count()).toBe(0);
    }
    await page.setInputFiles('input[type=file]', { name: 'me.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => page.getByRole('button', { name: 'Save Avatar' }).count()).toBe(1);
    await expectAccessible(page, `claim popup with the cropper at ${size.name}`);
    await page.getByRole('button', { name: 'Save Avatar' }).click();
    await expect.poll(() => page.getByText('Avatar Saved').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: /^PAY & CLAIM/ }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Content Under Review' }).count()).toBe(1);
    await expectAccessible(page, `content review at ${size.name}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'Content Under Review' }).count()).toBe(0);
    // Back on PAY & CLAIM, which had disabled itself (and so lost focus) while it checked the tile.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(/^PAY & CLAIM/);
    await popup.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => popup.count()).toBe(0);
    // Closed from the map canvas: focus is back on the map.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-roledescription'))).toBe('map');

    // Find Plots: focus starts in its search box; choosing a plot flies the map there.
    const findButton = page.getByRole('button', { name: /^Find Plots/ });
    await findButton.click();
    const find = page.getByRole('dialog', { name: /^Claimed Plots/ });
    await expect.poll(() => find.getByRole('link').count()).toBeGreaterThan(0);
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('search');
    await expectAccessible(page, `Find Plots at ${size.name}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => find.count()).toBe(0);
    await expect.poll(() => findButton.evaluate((button) => button === document.activeElement)).toBe(true);
    await findButton.click();
    const beforeFlight = await mapView(page);
    await find.getByRole('link', { name: new RegExp(PLOT_NAME) }).click();
    await cameraAtRest(page, { awayFrom: beforeFlight }); // the map flies to the plot

    // The profile popup, from the plot on the map; its share menu; then a flag.
    const box = (await mapCanvas(page).boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const card = page.getByRole('dialog', { name: PLOT_NAME });
    await expect.poll(() => card.count()).toBe(1);
    await expectAccessible(page, `profile popup at ${size.name}`);
    await card.getByRole('button', { name: 'Share Plot' }).click();
    await expect.poll(() => page.getByRole('menu').count()).toBe(1);
    await expectAccessible(page, `share menu at ${size.name}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    await card.getByRole('button', { name: 'Flag Content' }).click();
    await expect.poll(() => page.getByText('Content Flagged').count()).toBeGreaterThan(0);
    await expect.poll(() => card.count()).toBe(0);
    await expectAccessible(page, `after a flag (its toast) at ${size.name}`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-roledescription'))).toBe('map');
  });
});
