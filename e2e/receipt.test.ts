// After the payment (issue 25, goal 1): the buyer types an e-mail address on the checkout page, pays, and the
// celebration keeps the owner link on screen (no timer takes it away) until they press Continue; the receipt with the
// owner link reaches a real SMTP server; "Lost your owner link?", reached from the footer, e-mails a new one.
import { startSmtpServer, type TestSmtpServer } from '@pixel-atlas/moderation-service/testing/moderation-world';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillAndConfirmClaim, startCheckoutInPage } from './support/claim.ts';
import { landNearCentre } from './support/map.ts';
import { gotoLive, startStack, type Stack } from './support/stack.ts';

let smtp: TestSmtpServer;
let stack: Stack;

beforeAll(async () => {
  smtp = await startSmtpServer();
  stack = await startStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true` });
});

afterAll(async () => {
  await stack?.stop();
  await smtp?.close();
});

const mailTo = (address: string, subject: RegExp) =>
  smtp.messages.find((m) => m.to.some((to) => to.toLowerCase() === address) && subject.test(m.subject));

describe('a receipt and a way back', () => {
  it('asks for an e-mail at checkout, keeps the owner link on the celebration until Continue, and e-mails the receipt', async () => {
    const buyer = await stack.newPage();
    await gotoLive(buyer, stack.url);
    const [tile] = await landNearCentre(buyer, stack.url);
    if (!tile) throw new Error('no land on the map');
    const { url } = await startCheckoutInPage(buyer, { tier: 'basic', x: tile.x, y: tile.y });
    await buyer.goto(`${stack.url}${url}`);

    // The checkout page asks for the receipt address (a malformed one is held back by the browser; the server refuses
    // it too, services/plots receipt-and-recovery.test.ts).
    const email = buyer.getByLabel('Email for your receipt');
    await email.fill('not-an-address');
    expect(await email.evaluate((input) => (input as HTMLInputElement).validity.typeMismatch)).toBe(true);
    await buyer.getByLabel('Email for your receipt').fill('rita.receipt@example.com');
    // From here the page's clock is ours: no timer on the celebration can fire unless we move it.
    await buyer.clock.install();
    await buyer.getByRole('button', { name: /Pay \(test mode\)/ }).click();
    await buyer.waitForURL(/\/claim\?session_id=/);
    await expect
      .poll(() => buyer.getByRole('heading', { name: 'Payment Successful! Claim Your Plot' }).count(), { timeout: 15_000 })
      .toBe(1);
    await fillAndConfirmClaim(buyer, { name: 'Receipt Rita', message: 'Paid and kept the key', avatarFill: '#3b82f6' });
    await expect.poll(() => buyer.getByRole('heading', { name: 'Plot Claimed!' }).count(), { timeout: 15_000 }).toBe(1);
    const ownerUrl = await buyer.getByTestId('owner-link').locator('input').inputValue();
    expect(ownerUrl).toMatch(new RegExp(`^${stack.url}/manage/[A-Za-z0-9_-]{43}$`));
    const token = ownerUrl.split('/manage/')[1]!;

    // A minute later (the spec's redirect was due after 4.5 s) the link is still on screen, on /claim.
    await buyer.clock.fastForward(60_000);
    expect(new URL(buyer.url()).pathname).toBe('/claim');
    expect(await buyer.getByTestId('owner-link').locator('input').inputValue()).toBe(ownerUrl);

    // The receipt reached the SMTP server: what was paid, for which plot, when, the plot's page and the same owner link.
    await expect.poll(() => mailTo('rita.receipt@example.com', /^Your receipt from /), { timeout: 20_000 }).toBeTruthy();
    const receipt = mailTo('rita.receipt@example.com', /^Your receipt from /)!;
    expect(receipt.subject).toBe("Your receipt from Pixel Atlas: 'Receipt Rita', Basic Plot");
    expect(receipt.text).toContain('Amount:    $25 USD');
    expect(receipt.text).toContain(`Position:  (${tile.x}, ${tile.y})`);
    expect(receipt.text).toMatch(/Date: {6}\d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
    expect(receipt.text).toMatch(/Plot page: \S*\/plot\/[0-9a-f-]{36}/);
    expect(receipt.text).toContain(`/manage/${token}`);

    // Only Continue takes the buyer on.
    await buyer.getByRole('link', { name: 'Continue to Your Plot' }).click();
    await buyer.waitForURL(/\/plot\/[0-9a-f-]{36}$/);
    const plotId = buyer.url().split('/plot/')[1]!;
    expect(receipt.text).toContain(`/plot/${plotId}`);
  });

  it('"Lost your owner link?" from the footer e-mails a new link, and answers the same for an address that bought nothing', async () => {
    const visitor = await stack.newPage();
    await gotoLive(visitor, `${stack.url}/faq`);
    await visitor.getByRole('contentinfo').getByRole('link', { name: 'Lost your owner link?' }).click();
    await visitor.waitForURL(/\/owner-link$/);
    await expect.poll(() => visitor.getByRole('heading', { name: 'Lost your owner link?' }).count()).toBe(1);

    const ask = async (address: string) => {
      await visitor.getByLabel('Email').fill(address);
      await visitor.getByRole('button', { name: 'Send My Owner Link' }).click();
      await expect.poll(() => visitor.getByRole('status').innerText()).toBe('If that address bought a plot, its owner link is on its way.');
    };
    await ask('nobody.here@example.com');
    await ask('rita.receipt@example.com');

    await expect.poll(() => mailTo('rita.receipt@example.com', /^Your owner link for /), { timeout: 20_000 }).toBeTruthy();
    const mail = mailTo('rita.receipt@example.com', /^Your owner link for /)!;
    const fresh = /\/manage\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
    expect(fresh).toBeTruthy();
    await gotoLive(visitor, `${stack.url}/manage/${fresh}`);
    await expect.poll(() => visitor.getByText('Receipt Rita').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(smtp.messages.filter((m) => m.to.includes('nobody.here@example.com'))).toHaveLength(0);
  });
});
