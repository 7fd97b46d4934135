import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack, gotoLive } from './support/stack.ts';
import { claimThroughPopup } from './support/claim.ts';

let stack: Stack;
let buyer: Page;
let watcher: Page;
/** The plot the first test buys (the next one opens its page as a visitor would). */
let claimedPlotId: string | null = null;

beforeAll(async () => {
  stack = await startStack({ MAP_SEED: 'pixel-atlas' });
  buyer = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
  watcher = await stack.browser.newPage({ viewport: { width: 1280, height: 800 } });
});

afterAll(async () => {
  await stack?.stop();
});

describe('claiming a plot, end to end in a real browser', () => {
  it('selects a tier, clicks land, fills the popup, crops an avatar, pays, and lands on the new plot', async () => {
    await gotoLive(watcher, stack.url);
    await expect.poll(() => watcher.getByRole('button', { name: /^Find Plots/ }).textContent()).toBe('Find Plots (0)');

    await gotoLive(buyer, stack.url);
    const land = await claimThroughPopup(buyer, stack.url, {
      name: 'Pixel Pioneer',
      message: 'First light on the atlas',
      link: 'https://pioneer.example/',
    });
    expect(await buyer.getByText('Your basic plot is now yours!').count()).toBe(1);
    await buyer.getByRole('link', { name: 'Continue to Your Plot' }).click();
    await buyer.waitForURL(/\/plot\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    await expect.poll(() => buyer.getByRole('heading', { name: "Pixel Pioneer's Plot" }).count()).toBe(1);
    expect(await buyer.getByText(`Coordinates (${land.x}, ${land.y})`).count()).toBe(1);
    await buyer.screenshot({ path: path.resolve(import.meta.dirname, '../.data/screenshots/plot-page.png') });
    const plotId = buyer.url().split('/plot/')[1];
    assert(plotId, 'the buyer landed on a /plot/:id page');
    claimedPlotId = plotId;

    // The second page, open all along, sees the plot without a reload.
    await expect.poll(() => watcher.getByRole('button', { name: /^Find Plots/ }).textContent(), { timeout: 15_000 }).toBe('Find Plots (1)');
    await watcher.getByRole('button', { name: 'Find Plots (1)' }).click();
    // In the Find Plots list (the home strip's ticker links the new plot too).
    await expect
      .poll(() =>
        watcher
          .getByRole('dialog')
          .getByRole('link', { name: /Pixel Pioneer/ })
          .count(),
      )
      .toBe(1);

    await gotoLive(buyer, `${stack.url}/user/pixel%20pioneer`);
    await expect.poll(() => buyer.getByRole('heading', { name: "pixel pioneer's Atlas" }).count()).toBe(1);
    await expect.poll(() => buyer.getByRole('link', { name: 'View Plot' }).count()).toBe(1);

    // What got written: one plot with its footprint, one paid payment linked to it, one used session.
    const [plot] = await stack.db.query<{ display_name: string; tier: string; x: number; y: number; stripe_session_id: string }>(
      `SELECT display_name, tier, x, y, stripe_session_id FROM plots.plots WHERE id = $1`,
      [plotId],
    );
    expect(plot).toMatchObject({ display_name: 'Pixel Pioneer', tier: 'basic', x: land.x, y: land.y });
    assert(plot);
    const [payment] = await stack.db.query<{ status: string; amount: number; plot_id: string }>(
      `SELECT status, amount, plot_id::text FROM payments.payments WHERE stripe_session_id = $1`,
      [plot.stripe_session_id],
    );
    expect(payment).toMatchObject({ status: 'paid', amount: 2500 });
    await expect
      .poll(
        async () =>
          (await stack.db.query(`SELECT plot_id::text FROM payments.used_sessions WHERE session_id = $1`, [plot.stripe_session_id])).length,
      )
      .toBe(1);
    await expect
      .poll(
        async () =>
          (
            await stack.db.query<{ plot_id: string }>(`SELECT plot_id::text FROM payments.payments WHERE stripe_session_id = $1`, [
              plot.stripe_session_id,
            ])
          )[0]?.plot_id,
      )
      .toBe(plotId);

    // Crawlers get the plot's own page, with the outbound link in the markup.
    const html = await (await buyer.request.get(`${stack.url}/plot/${plotId}`)).text();
    expect(html).toMatch(/<a href="https:\/\/pioneer\.example\/"[^>]* rel="noopener"[^>]*>(?:<[^>]+>)*Visit Website</);
    // The sitemap is an index; the plot is listed in its plots file.
    expect(await (await buyer.request.get(`${stack.url}/sitemap.xml`)).text()).toContain('/sitemaps/plots-1.xml</loc>');
    expect(await (await buyer.request.get(`${stack.url}/sitemaps/plots-1.xml`)).text()).toContain(`/plot/${plotId}</loc>`);
  });

  it("opens a plot page with the gateway's page on screen until the app's own page replaces it whole (never an empty frame)", async () => {
    expect(claimedPlotId).not.toBeNull();
    const visitor = await stack.browser.newPage({ viewport: { width: 390, height: 844 } });
    // Every change to the document after the parser is done is checked for the plot's heading text.
    await visitor.addInitScript(() => {
      const seen = { mutations: 0, withoutHeading: 0 };
      (window as unknown as { headingWatch: typeof seen }).headingWatch = seen;
      new MutationObserver(() => {
        seen.mutations++;
        // Once the parser is done ('interactive' comes before any module script runs), the page is the gateway's whole page.
        if (document.readyState !== 'loading' && !document.body?.textContent?.includes("Pixel Pioneer's Plot")) seen.withoutHeading++;
      }).observe(document, { childList: true, subtree: true });
    });
    await gotoLive(visitor, `${stack.url}/plot/${claimedPlotId}`);
    // The app's page has taken over (its Share button is not in the gateway's page).
    await expect.poll(() => visitor.getByRole('button', { name: /Share/ }).count()).toBeGreaterThan(0);
    const watch = await visitor.evaluate(
      () => (window as unknown as { headingWatch: { mutations: number; withoutHeading: number } }).headingWatch,
    );
    expect(watch.mutations).toBeGreaterThan(0);
    expect(watch.withoutHeading).toBe(0);
    await visitor.close();
  });
});
