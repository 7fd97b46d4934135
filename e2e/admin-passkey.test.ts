// Issue 24: no stranger can lock the admin out. The admin adds a passkey after a password sign-in (chromium's virtual
// authenticator, through CDP), signs out, strangers on many addresses fill the username's hourly password ceiling, and
// the passkey still signs the admin in, at once, while the right password from a stranger's browser is refused.
import http from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { E2E_ADMIN, gotoLive, signInAdmin, startStack, type Stack } from './support/stack.ts';

/** A small ceiling, so the flood that fills it is quick; the gateway test fills the default 1,000 from 1,000 addresses. */
const CEILING = 30;
let stack: Stack;
let site: string;

beforeAll(async () => {
  stack = await startStack({ ADMIN_SIGN_IN_MAX_PER_HOUR: String(CEILING) });
  // A passkey belongs to a host name (its relying party ID), never to an IP address: the site as http://localhost.
  site = stack.url.replace('127.0.0.1', 'localhost');
});

afterAll(async () => {
  await stack?.stop();
});

/** A wrong (or right) password from `from`, any 127.x.y.z: each is another client address to the gateway. */
function passwordAttempt(password: string, from: string): Promise<number> {
  const body = JSON.stringify({ username: E2E_ADMIN.username, password });
  const { port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/admin/login',
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'sec-fetch-site': 'same-origin' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Chromium's virtual platform authenticator on this page: resident keys, user verification that always succeeds. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
}

const moderationShown = (page: Page) => page.getByRole('heading', { name: 'Content Moderation' }).count();

it('registers a passkey after a password sign-in and signs in with it while strangers have filled the password ceiling', async () => {
  const admin = await stack.newPage();
  const authenticator = await addVirtualAuthenticator(admin);

  await signInAdmin(admin, site);
  const passkeys = admin.getByTestId('admin-passkeys');
  await expect.poll(() => passkeys.getByText('You have no passkey yet.', { exact: false }).count()).toBe(1);
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await expect.poll(() => passkeys.getByText('Passkey added.').count()).toBe(1);
  await expect.poll(() => passkeys.getByText('You have 1 passkey.').count()).toBe(1);
  expect(await authenticator.credentials()).toHaveLength(1);
  const stored = await stack.db.query<{ user_id: string }>('SELECT user_id::text FROM gateway.admin_passkeys');
  expect(stored).toHaveLength(1);

  await admin.getByRole('button', { name: 'Sign out' }).click();
  await expect.poll(() => admin.getByRole('heading', { name: 'Admin sign in' }).count()).toBe(1);

  // Strangers fill the username's hourly ceiling: one wrong password from each of CEILING addresses.
  const statuses = await Promise.all(Array.from({ length: CEILING }, (_, i) => passwordAttempt(`guess-${i}-wrong`, `127.30.0.${i + 1}`)));
  expect(statuses.every((s) => s === 401)).toBe(true);
  expect(await passwordAttempt(E2E_ADMIN.password, '127.30.1.1')).toBe(429);

  // A browser that never signed in here is a stranger: even the right password is refused, with the reason shown.
  const stranger = await stack.newPage();
  await gotoLive(stranger, `${site}/admin`);
  await stranger.getByLabel('Username').fill(E2E_ADMIN.username);
  await stranger.getByLabel('Password').fill(E2E_ADMIN.password);
  await stranger.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect
    .poll(() => stranger.getByRole('alert').innerText())
    .toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes\.$/);

  // The passkey signs the admin in at once.
  await admin.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect.poll(() => moderationShown(admin)).toBe(1);
  expect(await admin.getByText(/Signed in as/).innerText()).toContain(E2E_ADMIN.username);
  const [used] = await stack.db.query<{ last_used_at: Date | null }>('SELECT last_used_at FROM gateway.admin_passkeys');
  expect(used?.last_used_at).not.toBeNull();
});
