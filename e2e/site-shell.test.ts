import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN, startStack, type Stack, gotoLive } from './support/stack.ts';

let stack: Stack;
let page: Page;

beforeAll(async () => {
  stack = await startStack();
  page = await stack.browser.newPage({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await stack?.stop();
});

async function open(path: string, status = 200): Promise<void> {
  const response = await gotoLive(page, `${stack.url}${path}`);
  expect(response?.status(), path).toBe(status);
}

describe('the site shell in a real browser', () => {
  it('shows the fixed header and the footer with the current year on every static route', async () => {
    for (const path of ['/', '/about', '/faq', '/terms', '/privacy', '/contact', '/demo', '/admin']) {
      await open(path);
      const header = page.locator('header').first();
      await expect.poll(() => header.getByRole('link', { name: 'About' }).count(), { message: path }).toBeGreaterThan(0);
      expect(await header.getByRole('link', { name: 'FAQ' }).count()).toBeGreaterThan(0);
      expect(await header.getByRole('link', { name: 'Contact' }).count()).toBeGreaterThan(0);
      expect(await header.getByText('Claim Your Tile').count()).toBeGreaterThan(0);
      const footer = page.locator('footer');
      expect(await footer.innerText()).toContain(String(new Date().getFullYear()));
      for (const name of ['FAQ', 'Privacy', 'Terms']) expect(await footer.getByRole('link', { name }).count()).toBeGreaterThan(0);
    }
  });

  it('renders each static page with the spec texts', async () => {
    await open('/about');
    for (const text of ['How it works', 'Why?', 'Built to last', 'Explore the Atlas'])
      await expect.poll(() => page.getByText(text).count(), { message: text }).toBeGreaterThan(0);
    await open('/faq');
    for (const text of [
      'Getting Started',
      'Plot Information',
      'Value & Benefits',
      'Payment & Refunds',
      'Technical',
      'Community',
      'Still have questions?',
    ]) {
      await expect.poll(() => page.getByText(text, { exact: true }).count(), { message: text }).toBeGreaterThan(0);
    }
    await open('/terms');
    // Legal pages are lazy chunks: poll until main holds the page.
    for (const text of ['18', '99.9%', 'refund'])
      await expect.poll(() => page.locator('main').innerText(), { message: text }).toContain(text);
    await open('/privacy');
    for (const text of ['7 years', '30 days']) await expect.poll(() => page.locator('main').innerText(), { message: text }).toContain(text);
    await open('/');
    expect(await page.title()).toBe('Pixel Atlas - An Interactive Fantasy Map of the Internet');
    await expect.poll(() => page.getByText('Claim Your Place in Pixel Atlas').count()).toBeGreaterThan(0);
  });

  it('shows the 404 screen with the exact texts for an unknown route', async () => {
    await open('/no/such/place', 404);
    await expect.poll(() => page.getByRole('heading', { name: '404 Page Not Found' }).count()).toBe(1);
    expect(await page.getByText('Did you forget to add the page to the router?').count()).toBe(1);
  });

  it('sends a contact message: success toast, cleared form, row in the contact schema', async () => {
    await open('/contact');
    await page.getByLabel('Name').fill('Browser Tester');
    await page.getByLabel('Email').fill('browser@example.com');
    await page.getByRole('combobox').click();
    await page.getByRole('option', { name: 'Technical Support' }).click();
    await page.getByLabel('Message').fill('Sent from headless chromium.');
    await page.getByRole('button', { name: /send/i }).click();
    await expect.poll(() => page.getByText('Message sent successfully!').count()).toBeGreaterThan(0);
    expect(await page.getByText("We'll get back to you within 24-48 hours.").count()).toBeGreaterThan(0);
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    const rows = await stack.db.query(`SELECT name, email, subject, message FROM contact.contact_submissions`);
    expect(rows).toEqual([
      { name: 'Browser Tester', email: 'browser@example.com', subject: 'technical', message: 'Sent from headless chromium.' },
    ]);
  });

  it('refuses a bad contact payload with a clear 400 and writes nothing', async () => {
    const response = await page.request.post(`${stack.url}/api/contact`, {
      data: { name: 'X', email: 'nope', subject: 'general', message: 'hi' },
    });
    expect(response.status()).toBe(400);
    expect((await response.json()).error.message).toBe('email: Please enter a valid email address');
    expect(await stack.db.query(`SELECT count(*)::int AS n FROM contact.contact_submissions`)).toEqual([{ n: 1 }]);
  });

  it('signs an admin in and out on /admin', async () => {
    await open('/admin');
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByText('Invalid username or password').count()).toBeGreaterThan(0);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: /sign out/i }).count()).toBe(1);
    expect(await page.getByText('Atlas Map Administration').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: /sign out/i }).click();
    await expect.poll(() => page.getByLabel('Username').count()).toBe(1);
    const sessions = await stack.db.query(
      `SELECT revoked_at IS NOT NULL AS revoked FROM gateway.admin_sessions WHERE revoked_at IS NOT NULL`,
    );
    expect(sessions.length).toBeGreaterThanOrEqual(1);
  });
});
