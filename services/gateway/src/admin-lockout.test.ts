// Issue 24's first finding, probed from outside over real sockets: strangers on 1,000 client addresses fill the
// username's hourly ceiling with wrong passwords; the admin's known browser and the admin's passkey still sign in.
import http from 'node:http';
import { testBedPerFile } from '@pixel-atlas/service-kit/service-per-file';
import pLimit from 'p-limit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { LOGIN_THROTTLE } from './domain/sign-in-admin.ts';
import { loadEnv } from './env.ts';
import { SoftAuthenticator } from './testing/soft-authenticator.ts';

const ORIGIN = 'http://localhost:8080';
const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const ATTACKERS = 1000;
const bed = testBedPerFile();
let gateway: Awaited<ReturnType<typeof buildApp>>;
let port: number;

beforeAll(async () => {
  gateway = await buildApp(
    loadEnv({
      ...bed.env,
      PUBLIC_ORIGIN: ORIGIN,
      CONTACT_URL: 'http://127.0.0.1:9',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    }),
  );
  await gateway.listen({ port: 0, host: '127.0.0.1' });
  port = (gateway.server.address() as { port: number }).port;
});

afterAll(async () => {
  await gateway?.close();
});

interface Answer {
  status: number;
  body: { username?: string; error?: { code: string; message: string } } & Record<string, unknown>;
  cookies: Record<string, string>;
}

/** A JSON POST from `localAddress` (any 127.x.y.z: the whole /8 answers on loopback), as a browser on the site sends it. */
function post(path: string, body: unknown, options: { from: string; cookie?: string }): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        localAddress: options.from,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'sec-fetch-site': 'same-origin',
          ...(options.cookie && { cookie: options.cookie }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => {
          const cookies: Record<string, string> = {};
          for (const line of response.headers['set-cookie'] ?? []) {
            const [pair = ''] = line.split(';', 1);
            const at = pair.indexOf('=');
            cookies[pair.slice(0, at)] = pair.slice(at + 1);
          }
          resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : {}, cookies });
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const attacker = (i: number) => `127.${10 + Math.floor(i / 250)}.${Math.floor(i / 250) % 2}.${(i % 250) + 1}`;

it(`after wrong passwords from ${ATTACKERS} addresses, the admin's known browser and passkey sign in at once`, async () => {
  // Yesterday: the admin signed in on their own browser and added a passkey.
  const first = await post('/api/admin/login', ADMIN, { from: '127.0.0.2' });
  expect(first.status).toBe(200);
  const deviceCookie = first.cookies.pa_admin_device;
  expect(deviceCookie).toBeTruthy();
  const session = `pa_admin=${first.cookies.pa_admin}`;
  const authenticator = new SoftAuthenticator(ORIGIN);
  const creation = await post('/api/admin/passkeys/options', {}, { from: '127.0.0.2', cookie: session });
  expect(
    (
      await post(
        '/api/admin/passkeys',
        { response: authenticator.register(creation.body as never) },
        { from: '127.0.0.2', cookie: session },
      )
    ).status,
  ).toBe(201);

  // Today: a botnet of 1,000 addresses guesses, a few at a time each.
  const limit = pLimit(25);
  const statuses = await Promise.all(
    Array.from({ length: ATTACKERS }, (_, i) =>
      limit(async () => (await post('/api/admin/login', { ...ADMIN, password: `guess-${i}-wrong` }, { from: attacker(i) })).status),
    ),
  );
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  expect(counts, 'every guess was checked and refused, none failed').toEqual({ 401: LOGIN_THROTTLE.maxAttemptsPerUsernamePerHour });
  // The ceiling is full: a stranger, even with the right password, is refused for the rest of the hour.
  const stranger = await post('/api/admin/login', ADMIN, { from: '127.0.0.3' });
  expect(stranger.status).toBe(429);
  expect(stranger.body.error?.code).toBe('RATE_LIMITED');

  // The admin's browser, from wherever it is now, is not a stranger.
  const known = await post('/api/admin/login', ADMIN, { from: '127.0.0.4', cookie: `pa_admin_device=${deviceCookie}` });
  expect(known.status).toBe(200);
  expect(known.body).toEqual({ username: ADMIN.username });
  expect(known.cookies.pa_admin_device, 'a fresh device cookie at each success').not.toBe(deviceCookie);

  // Nor is the admin's passkey, on any browser.
  const request = await post('/api/admin/passkey-sign-in/options', {}, { from: '127.0.0.5' });
  expect(request.status).toBe(200);
  const passkey = await post(
    '/api/admin/passkey-sign-in',
    { response: authenticator.signIn(request.body as never) },
    { from: '127.0.0.5' },
  );
  expect(passkey.status).toBe(200);
  expect(passkey.body).toEqual({ username: ADMIN.username });
  expect(passkey.cookies.pa_admin).toBeTruthy();
}, 240_000);
