import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadEnv } from '../env.ts';
import { issueDeviceCookie } from './device-cookies.ts';
import { verifyPassword } from './passwords.ts';
import { DEVICE_THROTTLE, LOGIN_THROTTLE, pruneLoginThrottle, signInAdmin, SignInThrottledError } from './sign-in-admin.ts';

const ADMIN = { username: 'admin', password: 'correct horse battery staple' };
const gateway = servicePerFile((env) =>
  buildApp(loadEnv({ ...env, CONTACT_URL: 'http://127.0.0.1:9', ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password })),
);
const prisma = () => gateway.app.db;

beforeEach(async () => {
  await prisma().loginThrottle.deleteMany();
});

const login = (password: string, remoteAddress: string, username = ADMIN.username) =>
  gateway.app.inject({
    method: 'POST',
    url: '/api/admin/login',
    payload: { username, password },
    remoteAddress,
    headers: { 'sec-fetch-site': 'same-origin' },
  });

/** signInAdmin with a password check that counts its calls. */
function counted() {
  let calls = 0;
  const verify = (hash: string | null, password: string) => {
    calls++;
    return verifyPassword(hash, password);
  };
  const attempt = (options: {
    password: string;
    clientIp: string;
    now?: Date;
    username?: string;
    policy?: typeof LOGIN_THROTTLE;
    device?: { secret: Buffer; cookie: string | undefined };
  }) =>
    signInAdmin({ db: prisma(), username: options.username ?? ADMIN.username, userAgent: null, verify, ...options }).then(
      () => 'ok' as const,
      (error: { code?: string; retryAfterSeconds?: number }) =>
        error.code === 'RATE_LIMITED' ? (`wait ${error.retryAfterSeconds}` as const) : error.code,
    );
  return { attempt, calls: () => calls };
}

describe('device cookies (OWASP): a browser that signed in before is counted apart from strangers', () => {
  const secret = () => gateway.app.adminAuthSecret;
  const keys = async () => (await prisma().loginThrottle.findMany()).map((r) => r.key).sort();

  it("counts a known browser's wrong passwords under its cookie alone, outside the username's ceiling", async () => {
    const { attempt } = counted();
    const now = new Date('2026-11-24T12:00:00Z');
    const device = { secret: secret(), cookie: issueDeviceCookie({ secret: secret(), username: ADMIN.username, now }) };
    // The username's ceiling is already full (a botnet): strangers are refused, the known browser is not.
    const policy = { ...LOGIN_THROTTLE, maxAttemptsPerUsernamePerHour: 3 };
    for (let i = 0; i < 3; i++) await attempt({ password: 'botnet-guess', clientIp: `192.0.2.${i + 1}`, now, policy });
    expect(await attempt({ password: ADMIN.password, clientIp: '198.51.100.1', now, policy })).toBe('wait 3600');
    expect(await attempt({ password: ADMIN.password, clientIp: '198.51.100.1', now, policy, device })).toBe('ok');

    // Its own budget is small: a few free attempts, then delays, for this cookie only.
    for (let i = 0; i < DEVICE_THROTTLE.freeAttemptsPerClient; i++) {
      expect(await attempt({ password: 'typo-typo-typo', clientIp: '198.51.100.1', now, policy, device })).toBe('INVALID_CREDENTIALS');
    }
    expect(await attempt({ password: ADMIN.password, clientIp: '198.51.100.1', now, policy, device })).toBe('wait 1');
    const otherBrowser = { secret: secret(), cookie: issueDeviceCookie({ secret: secret(), username: ADMIN.username, now }) };
    expect(await attempt({ password: ADMIN.password, clientIp: '198.51.100.1', now, policy, device: otherBrowser })).toBe('ok');
    const userRow = await prisma().loginThrottle.findUniqueOrThrow({ where: { key: 'user:admin' } });
    expect(userRow.failures, "the known browser's attempts never count toward the username's ceiling").toBe(3);
  });

  it('treats a tampered, foreign-keyed, other-username or expired cookie as a stranger', async () => {
    const { attempt } = counted();
    const now = new Date('2026-11-24T12:00:00Z');
    const good = issueDeviceCookie({ secret: secret(), username: ADMIN.username, now });
    const cookies = [
      `${good.slice(0, -3)}AAA`,
      issueDeviceCookie({ secret: Buffer.alloc(32, 7), username: ADMIN.username, now }),
      issueDeviceCookie({ secret: secret(), username: 'someone-else', now }),
      issueDeviceCookie({ secret: secret(), username: ADMIN.username, now: new Date(now.getTime() - 400 * 86_400_000) }),
    ];
    for (const [i, cookie] of cookies.entries()) {
      expect(
        await attempt({ password: 'wrong-wrong-wrong', clientIp: `203.0.113.${80 + i}`, now, device: { secret: secret(), cookie } }),
      ).toBe('INVALID_CREDENTIALS');
    }
    expect(await keys()).toEqual([
      'user-client:admin|203.0.113.80',
      'user-client:admin|203.0.113.81',
      'user-client:admin|203.0.113.82',
      'user-client:admin|203.0.113.83',
      'user:admin',
    ]);
  });

  it('sets the device cookie at sign-in, scoped to the sign-in path, and keeps it at sign-out', async () => {
    const signedIn = await login(ADMIN.password, '198.51.100.20');
    const device = signedIn.cookies.find((c) => c.name === 'pa_admin_device');
    expect(device).toMatchObject({ path: '/api/admin/login', httpOnly: true, sameSite: 'Strict', maxAge: 365 * 86_400 });
    const session = signedIn.cookies.find((c) => c.name === 'pa_admin')!;
    const out = await gateway.app.inject({
      method: 'POST',
      url: '/api/admin/logout',
      headers: { 'sec-fetch-site': 'same-origin', cookie: `pa_admin=${session.value}` },
    });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.map((c) => c.name)).toEqual(['pa_admin']);
  });
});

describe('admin sign-in throttling', () => {
  it('100 wrong passwords from one address do not stop the right password from another', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await login(`guess-${i}-guess-guess`, '203.0.113.66')).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    // A few more get checked as the 1 s, 2 s, 4 s ... delays run out while the loop runs; the rest are refused unchecked.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(9);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    const admin = await login(ADMIN.password, '198.51.100.7');
    expect(admin.statusCode).toBe(200);
    expect(admin.json()).toEqual({ username: ADMIN.username });
  });

  it('refuses even the right password from the attacking address while it is throttled, with Retry-After', async () => {
    for (let i = 0; i < 5; i++) expect((await login(`guess-${i}-guess-guess`, '203.0.113.67')).statusCode).toBe(401);
    const refused = await login(ADMIN.password, '203.0.113.67');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json().error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many failed sign-in attempts. Please try again in 1 second.',
    });
    expect(refused.headers['set-cookie']).toBeUndefined();
  });

  it('checks at most the free attempts when 20 wrong guesses arrive at once from one address', async () => {
    const { attempt, calls } = counted();
    // One instant for all 20, as if they arrived together: the refusals' wait is then exactly the first delay, however
    // long the busy machine takes to run them.
    const now = new Date();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt({ password: `parallel-${i}-guess`, clientIp: '203.0.113.68', now })),
    );
    expect(calls()).toBe(LOGIN_THROTTLE.freeAttemptsPerClient);
    expect(results.filter((r) => r === 'INVALID_CREDENTIALS')).toHaveLength(LOGIN_THROTTLE.freeAttemptsPerClient);
    expect(results.filter((r) => r === 'wait 1')).toHaveLength(20 - LOGIN_THROTTLE.freeAttemptsPerClient);

    // Through HTTP too: the refusals are 429s, the rest 401s.
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => login(`parallel-${i}-guess`, '203.0.113.69')));
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it('spaces further attempts 1 s, 2 s, 4 s ... apart, and a success starts the client over', async () => {
    const { attempt, calls } = counted();
    const t0 = Date.parse('2026-11-24T12:00:00Z');
    const at = (ms: number, password = 'wrong-password-1') => attempt({ password, clientIp: '203.0.113.70', now: new Date(t0 + ms) });
    for (let i = 0; i < 5; i++) expect(await at(i)).toBe('INVALID_CREDENTIALS');
    expect(await at(500)).toBe('wait 1');
    expect(await at(1004)).toBe('INVALID_CREDENTIALS'); // then 2 s
    expect(await at(1500)).toBe('wait 2');
    expect(await at(3004)).toBe('INVALID_CREDENTIALS'); // then 4 s
    expect(await at(3500)).toBe('wait 4');
    expect(await at(7004, ADMIN.password)).toBe('ok');
    expect(calls()).toBe(8);
    for (let i = 0; i < 4; i++) expect(await at(7100 + i)).toBe('INVALID_CREDENTIALS');
    // Delays are capped.
    const capped = { ...LOGIN_THROTTLE, freeAttemptsPerClient: 1, maxDelaySeconds: 5 };
    const t1 = t0 + 10_000;
    let last: string | undefined;
    for (let i = 0; i < 12; i++)
      last = await attempt({ password: 'x-wrong-wrong', clientIp: '203.0.113.71', now: new Date(t1 + i * 6000), policy: capped });
    expect(last).toBe('INVALID_CREDENTIALS');
    expect(await attempt({ password: 'x-wrong-wrong', clientIp: '203.0.113.71', now: new Date(t1 + 11 * 6000 + 1), policy: capped })).toBe(
      'wait 5',
    );
  });

  it('stops a botnet at the hourly ceiling per username, for known and unknown names alike', async () => {
    const { attempt, calls } = counted();
    const policy = { ...LOGIN_THROTTLE, maxAttemptsPerUsernamePerHour: 10 };
    const now = new Date('2026-11-24T12:00:00Z');
    for (const username of [ADMIN.username, 'nobody-here']) {
      const before = calls();
      for (let i = 0; i < 10; i++)
        expect(await attempt({ username, password: 'botnet-guess', clientIp: `192.0.2.${i + 1}`, now, policy })).toBe(
          'INVALID_CREDENTIALS',
        );
      expect(await attempt({ username, password: ADMIN.password, clientIp: '192.0.2.200', now, policy })).toBe('wait 3600');
      expect(calls() - before).toBe(10);
    }
    // The refusal did not use up the fresh address's own budget, and the next hour is open again.
    const later = new Date(now.getTime() + 3_600_000);
    expect(await attempt({ password: ADMIN.password, clientIp: '192.0.2.200', now: later, policy })).toBe('ok');
    const rows = await prisma().loginThrottle.findMany({ where: { key: { contains: '192.0.2.200' } } });
    expect(rows).toEqual([]);
  });

  it('words a refusal the same whether or not the username exists', async () => {
    for (const username of [ADMIN.username, 'ghost-admin']) {
      for (let i = 0; i < 5; i++) await login(`guess-${i}-guess-guess`, '203.0.113.72', username);
      const refused = await login(ADMIN.password, '203.0.113.72', username);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.message).toBe('Too many failed sign-in attempts. Please try again in 1 second.');
    }
  });

  it('prunes rows unused for two hours', async () => {
    const old = new Date(Date.now() - 3 * 3_600_000);
    await prisma().loginThrottle.create({ data: { key: 'user:stale', failures: 3, windowStart: old, lastAttemptAt: old } });
    await prisma().loginThrottle.create({ data: { key: 'user:fresh', failures: 3 } });
    expect(await pruneLoginThrottle({ db: prisma() })).toBe(1);
    expect((await prisma().loginThrottle.findMany()).map((r) => r.key)).toEqual(['user:fresh']);
  });
});

it('SignInThrottledError words minutes for long waits', () => {
  expect(new SignInThrottledError(3600).message).toBe('Too many failed sign-in attempts. Please try again in 60 minutes.');
  expect(new SignInThrottledError(2).message).toBe('Too many failed sign-in attempts. Please try again in 2 seconds.');
});
