import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startProcessStack, type ProcessStack } from '@pixel-atlas/test-stack/process-stack';
import { launchChromium } from './chromium.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export const E2E_ADMIN = { username: 'warden', password: 'e2e-admin-password' };

export interface Stack extends ProcessStack {
  browser: Browser;
  /** A page in a browser context of its own (cookies, session storage, history), as another person or device has; 1280×900 unless told. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
}

/**
 * The whole site as `npm start` runs it (every service in its own process behind the gateway, serving the built
 * web app) on a throwaway database and stream, plus a headless Debian chromium. `env` goes to every process.
 */
export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const webDist = path.join(repoRoot, 'web', 'dist', 'index.html');
  if (!existsSync(webDist)) throw new Error('web/dist is missing: `npm test` builds it (or run `npm run build -w @pixel-atlas/web`)');
  const stack = await startProcessStack({
    env,
    serviceEnv: { gateway: { ADMIN_USERNAME: E2E_ADMIN.username, ADMIN_PASSWORD: E2E_ADMIN.password } },
  });
  const browser = await launchChromium().catch(async (error: unknown) => {
    await stack.stop();
    throw error;
  });
  return {
    ...stack,
    browser,
    async newPage(options) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
      return context.newPage();
    },
    // Closing the browser closes every context newPage made.
    async stop() {
      await browser.close();
      await stack.stop();
    },
  };
}

/**
 * `page.goto`, again when the page's own navigation cancelled it (net::ERR_ABORTED): a dialog closed just before
 * (Escape) goes back in history a moment later, and that navigation can land while ours is in flight.
 */
async function gotoSuperseding(page: Page, url: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await page.goto(url);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('net::ERR_ABORTED')) throw error;
    }
  }
}

/**
 * Opens a page and waits until the app is live (main.tsx marks `<html data-app="live">` once React has committed):
 * before that the prerendered first screen is static HTML, and a test that clicks too early would click the copy.
 */
export async function gotoLive(page: Page, url: string) {
  const response = await gotoSuperseding(page, url);
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live', undefined, { timeout: 60_000 });
  return response;
}

/** Signs the e2e admin in on /admin and waits for the moderation screen. */
export async function signInAdmin(page: Page, siteUrl: string): Promise<void> {
  await gotoLive(page, `${siteUrl}/admin`);
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Content Moderation' }).count()).toBe(1);
}
