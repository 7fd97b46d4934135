import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { avatarFile, landNearCentre, mapCanvas, screenPointOfTile } from './map.ts';

export interface BuyerProfile {
  name: string;
  message: string;
  link: string;
}

/**
 * A buyer's whole path on a live home page, as a person takes it: Basic tier, the free land tile nearest the middle of
 * the view, the popup filled and an avatar cropped and saved, PAY & CLAIM, the test checkout's Pay button, and back on
 * /claim until 'Plot Claimed!' shows. Returns the tile bought.
 */
export async function claimThroughPopup(buyer: Page, siteUrl: string, profile: BuyerProfile): Promise<{ x: number; y: number }> {
  await expect.poll(async () => Number(await mapCanvas(buyer).getAttribute('data-zoom'))).toBeGreaterThan(0);
  const [land] = await landNearCentre(buyer, siteUrl);
  if (!land) throw new Error('no land on the map');

  await buyer.getByRole('button', { name: 'Select Basic Plot' }).click();
  await expect.poll(() => buyer.getByRole('dialog', { name: 'Basic Tier Selected!' }).count()).toBe(1);
  await buyer.getByRole('button', { name: "I'LL SELECT ON THE MAP" }).click();
  await buyer.waitForTimeout(600); // the page scrolls back up to the map
  const point = await screenPointOfTile(buyer, land.x, land.y);
  await buyer.mouse.click(point.x, point.y);
  await expect.poll(() => buyer.getByRole('dialog', { name: 'Claim This Tile' }).count()).toBe(1);

  await buyer.getByLabel('Display name').fill(profile.name);
  await buyer.getByLabel('Message').fill(profile.message);
  await buyer.getByLabel('Link (optional)').fill(profile.link);
  await buyer.setInputFiles('input[type=file]', await avatarFile(buyer, { fill: '#f2c14e', width: 64, height: 48, square: '#3b82f6' }));
  await buyer.getByRole('button', { name: 'Save Avatar' }).click();
  await expect.poll(() => buyer.getByText('Avatar Saved').count()).toBe(1);

  await buyer.getByRole('button', { name: 'PAY & CLAIM ($25)' }).click();
  await buyer.waitForURL(/\/api\/test-checkout\//);
  expect(await buyer.locator('body').innerText()).toMatch(/TEST MODE/);
  await buyer.getByRole('button', { name: /Pay \(test mode\)/ }).click();
  await buyer.waitForURL(/\/claim\?session_id=/);
  await expect.poll(() => buyer.getByRole('heading', { name: 'Plot Claimed!' }).count(), { timeout: 15_000 }).toBe(1);
  return land;
}
