import type { APIRequestContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { avatarFile, landNearCentre, mapCanvas, screenPointOfTile, selectTierOnMap } from './map.ts';

/** The smallest avatar a claim accepts, as a data URL. */
export const ONE_PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
/** The same PNG as a file's bytes, for an upload. */
export const ONE_PIXEL_PNG_BYTES = Buffer.from(ONE_PIXEL_PNG.slice(ONE_PIXEL_PNG.indexOf(',') + 1), 'base64');

/** A test-mode checkout for a basic plot at `tile`, paid and not claimed yet: its session id. */
export async function paidCheckout(request: APIRequestContext, siteUrl: string, tile: { x: number; y: number }): Promise<string> {
  const checkout = await request.post(`${siteUrl}/api/create-checkout-session`, { data: { tier: 'basic', ...tile } });
  expect(checkout.ok(), await checkout.text()).toBe(true);
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  expect((await request.post(`${siteUrl}/api/test-checkout/${sessionId}/pay`, { maxRedirects: 0 })).status()).toBe(303);
  return sessionId;
}

/** Buys and claims a basic plot through the public API (the browser flow itself is claim.test.ts's). */
export async function claimThroughApi(
  request: APIRequestContext,
  siteUrl: string,
  tile: { x: number; y: number },
  fields: { display_name: string; message: string; link: string },
): Promise<{ plotId: string; sessionId: string; manageToken: string }> {
  const sessionId = await paidCheckout(request, siteUrl, tile);
  const claim = await request.post(`${siteUrl}/api/claim-plot`, {
    data: { ...fields, zone: 'nexus', ...tile, stripeSessionId: sessionId, tier: 'basic', avatar_url: ONE_PIXEL_PNG },
  });
  expect(claim.status(), await claim.text()).toBe(201);
  const body = (await claim.json()) as { plot: { id: string }; manage_token: string };
  return { plotId: body.plot.id, sessionId, manageToken: body.manage_token };
}

export interface BuyerProfile {
  name: string;
  message: string;
  link: string;
}

/** Starts a checkout from this browser (as PAY & CLAIM does), which holds the footprint while it lasts. */
export async function startCheckoutInPage(
  page: Page,
  body: { tier: string; x: number; y: number },
): Promise<{ url: string; sessionId: string }> {
  const started = await page.evaluate(async (payload) => {
    const response = await fetch('/api/create-checkout-session', {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    return { status: response.status, json: (await response.json()) as { url: string; sessionId: string } };
  }, body);
  expect(started.status).toBe(200);
  return started.json;
}

/** On /claim after paying: the name and message, an avatar of one colour saved, then confirmed through the review step. */
export async function fillAndConfirmClaim(page: Page, profile: { name: string; message: string; avatarFill: string }): Promise<void> {
  await page.getByLabel('Display name').fill(profile.name);
  await page.getByLabel('Message').fill(profile.message);
  await page.setInputFiles('input[type=file]', await avatarFile(page, { fill: profile.avatarFill }));
  await page.getByRole('button', { name: 'Save Avatar' }).click();
  await expect.poll(() => page.getByText('Avatar Saved').count()).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'REVIEW DETAILS' }).click();
  await page.getByRole('button', { name: 'CONFIRM & CLAIM' }).click();
}

/**
 * A buyer's whole path on a live home page, as a person takes it: Basic tier, the free land tile nearest the middle of
 * the view, the popup filled and an avatar cropped and saved, PAY & CLAIM, the test checkout's Pay button, and back on
 * /claim until 'Plot Claimed!' shows. Returns the tile bought.
 */
export async function claimThroughPopup(buyer: Page, siteUrl: string, profile: BuyerProfile): Promise<{ x: number; y: number }> {
  // What the API answered other than 2xx/304, for the failure message: the popup's price comes from /api/prices.
  const apiProblems: string[] = [];
  buyer.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() >= 400) apiProblems.push(`${response.status()} ${response.url()}`);
  });
  buyer.on('requestfailed', (request) => {
    if (request.url().includes('/api/')) apiProblems.push(`failed (${request.failure()?.errorText ?? '?'}) ${request.url()}`);
  });
  await expect.poll(async () => Number(await mapCanvas(buyer).getAttribute('data-zoom'))).toBeGreaterThan(0);
  const [land] = await landNearCentre(buyer, siteUrl);
  if (!land) throw new Error('no land on the map');

  await selectTierOnMap(buyer);
  const point = await screenPointOfTile(buyer, land.x, land.y);
  await buyer.mouse.click(point.x, point.y);
  await expect
    .poll(() => buyer.getByRole('dialog', { name: 'Claim This Tile' }).count())
    .toBe(1)
    .catch(async (error: Error) => {
      // Where the click went and what the page showed: for the next reader if this fails again.
      const view = await buyer.evaluate(() => ({
        y: window.scrollY,
        dialogs: Array.from(document.querySelectorAll('[role="dialog"]')).map((d) => d.textContent?.slice(0, 80)),
      }));
      throw new Error(`${error.message} clicked ${JSON.stringify(point)} for ${JSON.stringify(land)}: ${JSON.stringify(view)}`);
    });

  await buyer.getByLabel('Display name').fill(profile.name);
  await buyer.getByLabel('Message').fill(profile.message);
  await buyer.getByLabel('Link (optional)').fill(profile.link);
  await buyer.setInputFiles('input[type=file]', await avatarFile(buyer, { fill: '#f2c14e', width: 64, height: 48, square: '#3b82f6' }));
  await buyer.getByRole('button', { name: 'Save Avatar' }).click();
  await expect.poll(() => buyer.getByText('Avatar Saved').count()).toBe(1);

  const payButton = buyer.getByRole('button', { name: 'PAY & CLAIM ($25)' });
  await payButton.waitFor({ timeout: 20_000 }).catch(async (error: Error) => {
    const dialog = await buyer
      .getByRole('dialog')
      .allInnerTexts()
      .catch(() => []);
    throw new Error(
      `${error.message}\ndialog: ${dialog.join(' | ').replace(/\s+/g, ' ')}\nAPI problems: ${apiProblems.join('; ') || 'none'}`,
    );
  });
  await payButton.click();
  await buyer.waitForURL(/\/api\/test-checkout\//);
  expect(await buyer.locator('body').innerText()).toMatch(/TEST MODE/);
  await buyer.getByRole('button', { name: /Pay \(test mode\)/ }).click();
  await buyer.waitForURL(/\/claim\?session_id=/);
  await expect.poll(() => buyer.getByRole('heading', { name: 'Plot Claimed!' }).count(), { timeout: 15_000 }).toBe(1);
  return land;
}
