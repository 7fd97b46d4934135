import type { Page } from 'playwright-core';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { claimThroughPopup } from './support/claim.ts';
import { screenPointOfTile } from './support/map.ts';
import { startStack, gotoLive, type Stack } from './support/stack.ts';

let stack: Stack;
let buyer: Page;
let watcher: Page;

beforeAll(async () => {
  // Request logs on (info), so the test can check that no log line carries the owner's token.
  stack = await startStack({ MAP_SEED: 'pixel-atlas', LOG_LEVEL: 'info' });
  buyer = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Another browser (its own cookies and storage, and its own user agent: another visitor from the same address), with
  // the map open all along.
  const otherAgent = `${await buyer.evaluate(() => navigator.userAgent)} Watcher/1.0`;
  watcher = await (await stack.browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: otherAgent })).newPage();
});

afterAll(async () => {
  await stack?.stop();
});

describe("the owner's private page, end to end in real browsers", () => {
  it('claim, open the owner link, edit, and the change shows live on a map open in another browser and on the plot page', async () => {
    await gotoLive(buyer, stack.url);
    const land = await claimThroughPopup(buyer, stack.url, {
      name: 'Owner Olga',
      message: 'Before the edit',
      link: 'https://olga.example/',
    });

    // Shown on the celebration, and once more on the plot page of this browser.
    const ownerUrl = await buyer.getByTestId('owner-link').locator('input').inputValue();
    expect(ownerUrl).toMatch(new RegExp(`^${stack.url}/manage/[A-Za-z0-9_-]{43}$`));
    // The celebration keeps the link on screen until the buyer goes on.
    await buyer.getByRole('link', { name: 'Continue to Your Plot' }).click();
    await buyer.waitForURL(/\/plot\/[0-9a-f-]{36}$/, { timeout: 10_000 });
    const plotId = buyer.url().split('/plot/')[1];
    await expect.poll(() => buyer.getByTestId('owner-link').locator('input').inputValue()).toBe(ownerUrl);
    await buyer.getByRole('button', { name: "I've saved it" }).click();
    await expect.poll(() => buyer.getByTestId('owner-link').count()).toBe(0);

    // The other browser opens the plot's profile on the map.
    await gotoLive(watcher, stack.url);
    await expect.poll(() => watcher.getByRole('button', { name: /^Find Plots/ }).textContent(), { timeout: 15_000 }).toBe('Find Plots (1)');
    const point = await screenPointOfTile(watcher, land.x, land.y);
    await watcher.mouse.click(point.x, point.y);
    const profile = watcher.getByRole('dialog', { name: 'Owner Olga' });
    await expect.poll(() => profile.getByText('Before the edit').count()).toBe(1);

    // The owner edits message and link on the private page.
    const page = await gotoLive(buyer, ownerUrl);
    expect(page?.headers()['referrer-policy']).toBe('no-referrer');
    expect(page?.headers()['x-robots-tag']).toBe('noindex, nofollow');
    await expect.poll(() => buyer.getByRole('heading', { name: "Manage Owner Olga's Plot" }).count()).toBe(1);
    await buyer.getByRole('textbox', { name: 'Message', exact: true }).fill('Edited from the owner page');
    await buyer.getByRole('textbox', { name: 'Link (optional)' }).fill('https://olga.example/new');
    await buyer.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => buyer.getByText('Your plot shows your new message and link now.').count()).toBe(1);

    // Live on the open map, without a reload; and on the server-rendered page.
    await expect.poll(() => profile.getByText('Edited from the owner page').count(), { timeout: 15_000 }).toBe(1);
    expect(await profile.getByRole('link', { name: 'Visit Website' }).getAttribute('href')).toBe('https://olga.example/new');
    // A visitor's copy of the page may be the one being rebuilt for up to a second after the change.
    await expect
      .poll(async () => {
        const html = await (await watcher.request.get(`${stack.url}/plot/${plotId}`)).text();
        return html.includes('Edited from the owner page') && html.includes('href="https://olga.example/new"');
      })
      .toBe(true);

    // An edit with a listed word waits for review: the map keeps the current content.
    await buyer.getByRole('textbox', { name: 'Message', exact: true }).fill('I hate Mondays');
    await buyer.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => buyer.getByTestId('pending-edit').count()).toBe(1);
    // The open map changes only through the events plots writes to its outbox in the change's own transaction, which
    // has committed once the owner page says the edit waits: the first edit's update is there, and nothing for this one.
    const updates = await stack.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM plots.outbox_events WHERE subject = 'plots.plot.updated'`,
    );
    expect(Number(updates[0]?.n)).toBe(1);
    expect(await profile.getByText('Edited from the owner page').count()).toBe(1);
    expect(await profile.getByText('I hate Mondays').count()).toBe(0);

    // The watcher's profile open and visit of the plot page were counted; the owner's own visits (the plot page after
    // the claim, and again now) were not: this browser proved it owns the plot (the owner cookie).
    await gotoLive(buyer, `${stack.url}/plot/${plotId}`);
    const token = ownerUrl.split('/manage/')[1];
    assert(token, 'the owner link is /manage/<token>');
    await expect
      .poll(async () => {
        const { stats } = (await (await buyer.request.get(`${stack.url}/api/manage/${token}`)).json()) as {
          stats: { days: Array<{ views: number; profileOpens: number }> };
        };
        return stats.days.reduce((sum, day) => ({ views: sum.views + day.views, opens: sum.opens + day.profileOpens }), {
          views: 0,
          opens: 0,
        });
      })
      .toEqual({ views: 1, opens: 1 });
    await gotoLive(buyer, ownerUrl);
    await expect.poll(() => buyer.getByTestId('stats-totals').textContent()).toContain('1 page views, 1 profile opens');

    // The token never reached a log line (the gateway's and every service's request logs redact it).
    for (const service of stack.processes()) {
      const leaks = service
        .output()
        .split('\n')
        .filter((line) => line.includes(token));
      expect(leaks, service.name).toEqual([]);
    }
    expect(stack.gateway.output()).toContain('"url":"/manage/[redacted]"');
    expect(stack.replicas.plots[0]!.output()).toContain('"url":"/api/manage/[redacted]"');
  }, 120_000);
});
