import type { Page } from 'playwright-core';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN, signInAdmin, startStack, type Stack, gotoLive } from './support/stack.ts';
import { ONE_PIXEL_PNG_BYTES, claimThroughApi } from './support/claim.ts';
import { cameraAtRest, mapCanvas, mapView } from './support/map.ts';

let stack: Stack;
let buyer: Page;
let admin: Page;
let watcher: Page;
let landTiles: Array<{ x: number; y: number }>;

const findPlotsCount = (page: Page) => page.getByRole('button', { name: /^Find Plots/ }).textContent();
beforeAll(async () => {
  stack = await startStack({ MAP_SEED: 'pixel-atlas' });
  buyer = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
  admin = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
  watcher = await stack.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const layout = (await (await buyer.request.get(`${stack.url}/api/map-layout`)).json()) as {
    tiles: Array<{ x: number; y: number; is_land: boolean }>;
  };
  landTiles = layout.tiles.filter((t) => t.is_land && t.x >= 30 && t.y >= 30);
});

afterAll(async () => {
  await stack?.stop();
});

describe('moderation, end to end in a real browser', () => {
  it('holds a claim with a listed word for review; the admin approves it and it appears on open maps', async () => {
    await gotoLive(watcher, stack.url);
    await expect.poll(() => findPlotsCount(watcher)).toBe('Find Plots (0)');

    // The buyer picks a spot through auto-assign and writes a message the word screen catches.
    await gotoLive(buyer, stack.url);
    await buyer.getByRole('button', { name: 'Select Basic Plot' }).click();
    await buyer.getByRole('button', { name: 'AUTO-ASSIGN A PLOT' }).click();
    await expect.poll(() => buyer.getByRole('dialog', { name: 'Claim This Tile' }).count()).toBe(1);
    await buyer.getByLabel('Display name').fill('Grumpy Gnome');
    await buyer.getByLabel('Message').fill('I hate slow websites');
    await buyer.setInputFiles('input[type=file]', { name: 'gnome.png', mimeType: 'image/png', buffer: ONE_PIXEL_PNG_BYTES });
    await buyer.getByRole('button', { name: 'Save Avatar' }).click();
    await expect.poll(() => buyer.getByText('Avatar Saved').count()).toBe(1);
    await buyer.getByRole('button', { name: 'PAY & CLAIM ($25)' }).click();
    await expect.poll(() => buyer.getByRole('dialog', { name: 'Content Under Review' }).count()).toBe(1);
    await buyer.getByLabel('Email for the review result (optional)').fill('gnome@example.com');
    await buyer.getByRole('button', { name: 'Create Plot' }).click();
    await buyer.waitForURL(/\/api\/test-checkout\//);
    await buyer.getByRole('button', { name: /Pay \(test mode\)/ }).click();
    await buyer.waitForURL(/\/claim\?session_id=/);
    await expect.poll(() => buyer.getByText('Plot Created - Under Review').count(), { timeout: 15_000 }).toBeGreaterThan(0);

    const [hidden] = await stack.db.query<{ id: string; visible: boolean; notification_email: string }>(
      `SELECT id::text, visible, notification_email FROM plots.plots WHERE display_name = 'Grumpy Gnome'`,
    );
    expect(hidden).toMatchObject({ visible: false, notification_email: 'gnome@example.com' });
    assert(hidden);
    expect(((await (await buyer.request.get(`${stack.url}/api/plots`)).json()) as unknown[]).length).toBe(0);

    await signInAdmin(admin, stack.url);
    const item = admin.getByRole('article', { name: 'Flagged plot Grumpy Gnome' });
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.innerText()).toContain('hate');
    await item.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => admin.getByText('No content pending review').count()).toBe(1);

    // The watcher's map, open all along, gets the approved plot without a reload.
    await expect.poll(() => findPlotsCount(watcher), { timeout: 15_000 }).toBe('Find Plots (1)');
    const audit = await stack.db.query<{ decision: string; admin: string }>(
      `SELECT decision, admin FROM moderation.moderation_audit WHERE plot_id = $1`,
      [hidden.id],
    );
    expect(audit).toEqual([{ decision: 'approved', admin: E2E_ADMIN.username }]);
  });

  it('lets a visitor flag a plot without hiding it; the admin rejects it and it is gone everywhere but the payment record', async () => {
    // Free land: the first test's auto-assign may have taken any tile.
    let tile: { x: number; y: number } | undefined;
    for (const candidate of [...landTiles.filter((t) => t.x >= 50), ...landTiles]) {
      const answer = await buyer.request.get(`${stack.url}/api/position-available?x=${candidate.x}&y=${candidate.y}`);
      if (((await answer.json()) as { available?: boolean }).available) {
        tile = candidate;
        break;
      }
    }
    assert(tile, 'free land on the map');
    const { plotId, sessionId } = await claimThroughApi(buyer.request, stack.url, tile, {
      display_name: 'Shady Shop',
      message: 'A calm corner of the map',
      link: 'https://calm.example/',
    });
    await expect.poll(() => findPlotsCount(watcher), { timeout: 15_000 }).toBe('Find Plots (2)');

    // A visitor opens the plot's profile card from the map and flags it.
    await watcher.getByRole('button', { name: 'Find Plots (2)' }).click();
    const beforeFlight = await mapView(watcher);
    await watcher
      .getByRole('dialog')
      .getByRole('link', { name: /Shady Shop/ })
      .click();
    await cameraAtRest(watcher, { awayFrom: beforeFlight }); // the map flies to the plot
    const box = (await mapCanvas(watcher).boundingBox())!;
    await watcher.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const card = watcher.getByRole('dialog', { name: 'Shady Shop' });
    await expect.poll(() => card.count()).toBe(1);
    await card.getByRole('button', { name: 'Flag Content' }).click();
    await expect.poll(() => watcher.getByText('Content Flagged').count()).toBeGreaterThan(0);
    await expect.poll(() => card.count()).toBe(0);
    // A flag never hides a plot by itself.
    expect(await findPlotsCount(watcher)).toBe('Find Plots (2)');

    await admin.reload();
    const item = admin.getByRole('article', { name: 'Flagged plot Shady Shop' });
    await expect.poll(() => item.count(), { timeout: 15_000 }).toBe(1);
    await item.getByRole('button', { name: 'Reject' }).click();
    await admin.getByRole('alertdialog', { name: 'Reject This Plot?' }).getByRole('button', { name: 'Reject' }).click();
    await expect.poll(() => admin.getByText('No content pending review').count()).toBe(1);

    await expect.poll(() => findPlotsCount(watcher), { timeout: 15_000 }).toBe('Find Plots (1)');
    expect((await buyer.request.get(`${stack.url}/api/plots/${plotId}`)).status()).toBe(404);
    await gotoLive(buyer, `${stack.url}/user/Shady%20Shop`);
    await expect.poll(() => buyer.getByText('Claim Your First Plot').count()).toBe(1);
    expect(await (await buyer.request.get(`${stack.url}/sitemaps/plots-1.xml`)).text()).not.toContain(plotId);
    const position = await (await buyer.request.get(`${stack.url}/api/position-available?x=${tile.x}&y=${tile.y}`)).json();
    expect(position.available).toBe(true);
    await expect
      .poll(
        async () =>
          (
            await stack.db.query<{ status: string; plot_id: string | null }>(
              `SELECT status, plot_id FROM payments.payments WHERE stripe_session_id = $1`,
              [sessionId],
            )
          )[0],
      )
      .toEqual({ status: 'paid', plot_id: null });
  });
});
