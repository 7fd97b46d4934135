import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, gotoLive } from './support/stack.ts';
import { fillAndConfirmClaim, startCheckoutInPage } from './support/claim.ts';
import { avatarFile, landNearCentre, mapCanvas, screenPointOfTile, selectTierOnMap } from './support/map.ts';

// Prices that are not the built-in defaults: what the browser shows and what is charged must both be these.
const PRICES = { basic: 3100, featured: 5000, prime: 7500, premium: 20000 };

let stack: Stack;
let land: Array<{ x: number; y: number }>;

beforeAll(async () => {
  stack = await startStack({
    MAP_SEED: 'pixel-atlas',
    TIER_PRICES_CENTS: JSON.stringify({ basic: PRICES.basic, premium: PRICES.premium }),
  });
});

afterAll(async () => {
  await stack?.stop();
});

/** Home, ready to click: free land tiles near the centre of the first view, nearest first. */
async function openHome(page: Page) {
  await gotoLive(page, stack.url);
  await expect.poll(async () => Number(await mapCanvas(page).getAttribute('data-zoom'))).toBeGreaterThan(0);
  land ??= await landNearCentre(page, stack.url);
}

/** Clicks the tile and fills the claim popup up to the pay button (the basic tier from the card). */
async function fillPopup(page: Page, tile: { x: number; y: number }, name: string) {
  await selectTierOnMap(page);
  const point = await screenPointOfTile(page, tile.x, tile.y);
  await page.mouse.click(point.x, point.y);
  const popup = page.getByRole('dialog', { name: 'Claim This Tile' });
  await expect.poll(() => popup.getByText(`Position (${tile.x}, ${tile.y})`).count()).toBe(1);
  await page.getByLabel('Display name').fill(name);
  await page.getByLabel('Message').fill('Hello from the buyer path');
  await page.setInputFiles('input[type=file]', await avatarFile(page, { fill: '#3b82f6' }));
  await page.getByRole('button', { name: 'Save Avatar' }).click();
  await expect.poll(() => page.getByText('Avatar Saved').count()).toBeGreaterThan(0);
}

const paymentOf = async (sessionId: string) =>
  (
    await stack.db.query<{ status: string; amount: number; plot_id: string | null }>(
      `SELECT status, amount, plot_id::text FROM payments.payments WHERE stripe_session_id = $1`,
      [sessionId],
    )
  )[0];

describe("the buyer's path, truthfully", () => {
  it('shows the configured price everywhere, charges it, and Back after the claim says the payment already claimed the plot', async () => {
    const buyer = await stack.newPage();
    await openHome(buyer);
    const basicCard = buyer.getByRole('article', { name: 'Basic Plot' });
    await expect.poll(() => basicCard.getByText('$31').count()).toBe(1);
    expect(await buyer.getByRole('article', { name: 'Premium Plot' }).getByText('$200').count()).toBe(1);
    expect(await basicCard.getByText('$25').count()).toBe(0);

    const tile = land[0]!;
    await fillPopup(buyer, tile, 'Honest Prices');
    const popup = buyer.getByRole('dialog', { name: 'Claim This Tile' });
    expect(
      await popup
        .getByRole('radio', { name: /Premium/ })
        .locator('..')
        .innerText(),
    ).toContain('$200');
    await buyer.getByRole('button', { name: 'PAY & CLAIM ($31)' }).click();
    await buyer.waitForURL(/\/api\/test-checkout\//);
    expect(await buyer.locator('body').innerText()).toContain('$31');
    await buyer.getByRole('button', { name: /Pay \(test mode\)/ }).click();
    await buyer.waitForURL(/\/claim\?session_id=/);
    const sessionId = new URL(buyer.url()).searchParams.get('session_id')!;
    await expect.poll(() => buyer.getByRole('heading', { name: 'Plot Claimed!' }).count(), { timeout: 15_000 }).toBe(1);
    await buyer.getByRole('link', { name: 'Continue to Your Plot' }).click();
    await buyer.waitForURL(/\/plot\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    const plotId = buyer.url().split('/plot/')[1];
    // The URL changes at once; the page follows once its screen has loaded (until then the celebration stays, and Back
    // would return to it, still mounted).
    await expect.poll(() => buyer.getByRole('heading', { name: "Honest Prices's Plot" }).count(), { timeout: 15_000 }).toBe(1);
    expect(await paymentOf(sessionId)).toMatchObject({ status: 'paid', amount: PRICES.basic });

    // Back: the claim page again, which now tells the truth instead of offering an empty form.
    await expect.poll(async () => (await paymentOf(sessionId))?.plot_id).toBe(plotId);
    await buyer.goBack();
    await buyer.waitForURL(/\/claim\?session_id=/);
    // Back may be a fresh load of /claim (the test checkout's redirect made that entry): the app boots and asks payments
    // again, which on a CI machine running the fault suites beside it took longer than 10 s once.
    await expect
      .poll(() => buyer.getByText('This payment already claimed Honest Prices').count(), { timeout: 20_000 })
      .toBe(1)
      .catch(async (error: Error) => {
        // What the page said instead (this failed once in CI, and never here): the next reader needs it.
        const shown = await buyer
          .locator('main')
          .innerText()
          .catch(() => '(no main)');
        throw new Error(`${error.message}\n/claim after Back showed: ${shown.slice(0, 600)}`);
      });
    expect(await buyer.getByText('Payment Successful! Claim Your Plot').count()).toBe(0);
    const link = buyer.getByRole('link', { name: "View Honest Prices's Plot" });
    expect(await link.getAttribute('href')).toBe(`/plot/${plotId}`);
  });

  it('cancelling the checkout comes back to the tile with the details, and another browser can buy that tile at once (its /claim shows the paid position)', async () => {
    const buyer = await stack.newPage();
    await openHome(buyer);
    const [first] = land;
    const tile = land.find((t) => Math.abs(t.x - first!.x) + Math.abs(t.y - first!.y) >= 3)!;
    await fillPopup(buyer, tile, 'Second Thoughts');
    await buyer.getByRole('button', { name: 'PAY & CLAIM ($31)' }).click();
    await buyer.waitForURL(/\/api\/test-checkout\//);
    await buyer.getByRole('link', { name: /Cancel/ }).click();
    await buyer.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => buyer.getByText('Checkout Cancelled').count(), { timeout: 10_000 }).toBe(1);
    const popup = buyer.getByRole('dialog', { name: 'Claim This Tile' });
    await expect.poll(() => popup.getByText(`Position (${tile.x}, ${tile.y})`).count()).toBe(1);
    expect(await popup.getByLabel('Display name').inputValue()).toBe('Second Thoughts');
    expect(await popup.getByAltText('Your saved avatar').count()).toBe(1);
    expect(new URL(buyer.url()).search).toBe('');

    // Someone else, in another browser, buys the same tile straight away: the hold was released.
    const other = await stack.newPage();
    await gotoLive(other, stack.url);
    // The checkout starts from this page (as the popup would), without a pending claim in its session storage.
    const { url, sessionId } = await startCheckoutInPage(other, { tier: 'basic', x: tile.x, y: tile.y });
    // The test checkout is payments' own page (no app to go live): a plain goto.
    await other.goto(`${stack.url}${url}`);
    await other.getByRole('button', { name: /Pay \(test mode\)/ }).click();
    await other.waitForURL(/\/claim\?session_id=/);
    await expect
      .poll(() => other.getByRole('heading', { name: 'Payment Successful! Claim Your Plot' }).count(), { timeout: 15_000 })
      .toBe(1);
    // No pending claim in this browser: the position comes from the server.
    expect(await other.getByRole('spinbutton', { name: 'X' }).inputValue()).toBe(String(tile.x));
    expect(await other.getByRole('spinbutton', { name: 'Y' }).inputValue()).toBe(String(tile.y));
    await fillAndConfirmClaim(other, { name: 'Quick Hands', message: 'Bought it right after', avatarFill: '#3b82f6' });
    await expect.poll(() => other.getByRole('heading', { name: 'Plot Claimed!' }).count(), { timeout: 15_000 }).toBe(1);
    const [plot] = await stack.db.query<{ display_name: string; x: number; y: number }>(
      `SELECT display_name, x, y FROM plots.plots WHERE stripe_session_id = $1`,
      [sessionId],
    );
    expect(plot).toEqual({ display_name: 'Quick Hands', x: tile.x, y: tile.y });
    expect(await paymentOf(sessionId)).toMatchObject({ status: 'paid', amount: PRICES.basic });
  });
});
