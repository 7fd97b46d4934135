import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServiceProcess, type ServiceProcess } from '@pixel-atlas/service-kit/service-process';
import { createTestDatabase, createTestStream, testServiceEnv, type TestDatabase, type TestStream } from '@pixel-atlas/service-kit/testing';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const BACKENDS: Record<string, string> = {
  contact: 'CONTACT_URL',
  map: 'MAP_URL',
  plots: 'PLOTS_URL',
  payments: 'PAYMENTS_URL',
  moderation: 'MODERATION_URL',
};

export const E2E_ADMIN = { username: 'warden', password: 'e2e-admin-password' };

export interface Stack {
  url: string;
  db: TestDatabase;
  stream: TestStream;
  services: Map<string, ServiceProcess>;
  browser: Browser;
  stop(): Promise<void>;
}

/** Services present in this checkout (E2E_SERVICES=a,b narrows it while a service is being written). */
export function hasService(name: string): boolean {
  const only = process.env.E2E_SERVICES?.split(',');
  if (only && !only.includes(name)) return false;
  return ['server.ts', 'app.ts'].every((file) => existsSync(path.join(repoRoot, 'services', name, 'src', file)));
}

/**
 * The whole site as `npm start` runs it (every service in its own process behind the gateway, serving
 * the built web app) on a throwaway database and stream, plus a headless Debian chromium.
 */
export async function startStack(extraEnv: Record<string, string> = {}): Promise<Stack> {
  const webDist = path.join(repoRoot, 'web', 'dist', 'index.html');
  if (!existsSync(webDist)) throw new Error('web/dist is missing: `npm test` builds it (or run `npm run build -w @pixel-atlas/web`)');
  const db = await createTestDatabase();
  const stream = await createTestStream();
  const env = { ...testServiceEnv(db, stream), LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...extraEnv };
  const services = new Map<string, ServiceProcess>();
  try {
    const upstreams: Record<string, string> = {};
    const backends = Object.keys(BACKENDS).filter(hasService);
    // allSettled: when one service fails to start, the others must still be stopped (catch below).
    const started = await Promise.allSettled(backends.map((name) => startServiceProcess(name, env)));
    for (const result of started) if (result.status === 'fulfilled') services.set(result.value.name, result.value);
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    for (const service of services.values()) upstreams[BACKENDS[service.name]] = service.url;
    const gateway = await startServiceProcess('gateway', {
      ...env,
      ...upstreams,
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
    });
    services.set('gateway', gateway);
  } catch (error) {
    await Promise.all([...services.values()].map((s) => s.stop('SIGKILL')));
    await stream.remove();
    await db.drop();
    throw error;
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    url: services.get('gateway')!.url,
    db,
    stream,
    services,
    browser,
    async stop() {
      await browser.close();
      await Promise.all([...services.values()].map((s) => s.stop()));
      await stream.remove();
      await db.drop();
    },
  };
}

/**
 * Opens a page and waits until the app is live (main.tsx marks `<html data-app="live">` once React has committed):
 * before that the prerendered first screen is static HTML, and a test that clicks too early would click the copy.
 */
export async function gotoLive(page: Page, url: string) {
  const response = await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live', undefined, { timeout: 60_000 });
  return response;
}
