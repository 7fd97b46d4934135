import { NOT_HELD_NOTICE } from '@pixel-atlas/contracts/payments';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCheckoutInPage } from './support/claim.ts';
import { avatarFile, landNearCentre, mapCanvas, screenPointOfTile, selectTierOnMap } from './support/map.ts';
import { gotoLive, startStack, type Stack } from './support/stack.ts';

// Two people behind one address (every browser here comes from 127.0.0.1), and a checkout past the ceiling on held
// land. HELD_LAND_MAX_PERCENT is set so that two 1×1 holds fit on this seed's 5,388 land tiles (0.05 % of them: 2)
// and a third does not.
let stack: Stack;
let land: Array<{ x: number; y: number }> = [];

beforeAll(async () => {
  stack = await startStack({ MAP_SEED: 'pixel-atlas', HELD_LAND_MAX_PERCENT: '0.05' });
});

afterAll(async () => {
  await stack?.stop();
});

/** A buyer's browser of its own (own cookies), on the live home page with the map ready. */
async function buyerPage(): Promise<Page> {
  const page = await stack.newPage();
  await gotoLive(page, stack.url);
  await expect.poll(async () => Number(await mapCanvas(page).getAttribute('data-zoom'))).toBeGreaterThan(0);
  if (land.length === 0) land = await landNearCentre(page, stack.url);
  return page;
}

/** As a person does it: Basic, the tile clicked on the map, the popup filled, an avatar saved, PAY & CLAIM. */
async function fillPopupAndPay(buyer: Page, tile: { x: number; y: number }, name: string): Promise<void> {
  await selectTierOnMap(buyer);
  const point = await screenPointOfTile(buyer, tile.x, tile.y);
  await buyer.mouse.click(point.x, point.y);
  const popup = buyer.getByRole('dialog', { name: 'Claim This Tile' });
  await expect.poll(() => popup.getByText(`Position (${tile.x}, ${tile.y})`).count()).toBe(1);
  await buyer.getByLabel('Display name').fill(name);
  await buyer.getByLabel('Message').fill('One address, many buyers');
  await buyer.setInputFiles('input[type=file]', await avatarFile(buyer, { fill: '#22c55e' }));
  await buyer.getByRole('button', { name: 'Save Avatar' }).click();
  await expect.poll(() => buyer.getByText('Avatar Saved').count()).toBeGreaterThan(0);
  const pay = buyer.getByRole('button', { name: 'PAY & CLAIM ($25)' });
  await pay.waitFor({ timeout: 20_000 });
  await pay.click();
}

/** On the test checkout page: Pay, then back on /claim until the pending claim is made. */
async function payAndSeeClaimed(buyer: Page): Promise<void> {
  await buyer.getByRole('button', { name: /Pay \(test mode\)/ }).click();
  await buyer.waitForURL(/\/claim\?session_id=/);
  await expect.poll(() => buyer.getByRole('heading', { name: 'Plot Claimed!' }).count(), { timeout: 20_000 }).toBe(1);
}

describe('two buyers on one address', () => {
  it("each reaches the checkout, and each pays for and claims their own spot: the second checkout does not end the first's", async () => {
    const alice = await buyerPage();
    const [a, b] = [land[0]!, land[1]!];
    await fillPopupAndPay(alice, a, 'Alice Shares A Router');
    await alice.waitForURL(/\/api\/test-checkout\//);

    const bob = await buyerPage();
    await fillPopupAndPay(bob, b, 'Bob Shares A Router');
    await bob.waitForURL(/\/api\/test-checkout\//);

    // Alice presses Pay after Bob started his checkout: her plot, not 'This checkout session has expired'.
    await payAndSeeClaimed(alice);
    await payAndSeeClaimed(bob);
    const plots = (await (await alice.request.get(`${stack.url}/api/plots`)).json()) as Array<{
      display_name: string;
      x: number;
      y: number;
    }>;
    expect(plots.map((p) => [p.display_name, p.x, p.y]).sort()).toEqual(
      [
        ['Alice Shares A Router', a.x, a.y],
        ['Bob Shares A Router', b.x, b.y],
      ].sort(),
    );
  }, 240_000);

  it('past the ceiling on held land the buyer is told the spot is not reserved, and still buys it', async () => {
    // Two unpaid checkouts elsewhere fill the ceiling (two 1×1 holds).
    for (const tile of [land[6]!, land[8]!]) {
      const holder = await buyerPage();
      expect(await startCheckoutInPage(holder, { tier: 'basic', ...tile })).toMatchObject({ held: true });
    }
    const carol = await buyerPage();
    const c = land[3]!;
    await fillPopupAndPay(carol, c, 'Carol Pays Unheld');
    const notice = carol.getByRole('dialog', { name: 'Spot Not Reserved' });
    await expect.poll(() => notice.getByText(NOT_HELD_NOTICE).count()).toBe(1);
    await notice.getByRole('button', { name: 'CONTINUE TO PAYMENT' }).click();
    await carol.waitForURL(/\/api\/test-checkout\//);
    await payAndSeeClaimed(carol);
  }, 240_000);
});
