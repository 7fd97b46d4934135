import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { servicePerFile } from '@pixel-atlas/service-kit/service-per-file';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { relyingPartyOf } from '../domain/register-admin-passkey.ts';
import { signInWithPasskey, startPasskeySignIn } from '../domain/sign-in-with-passkey.ts';
import { loadEnv } from '../env.ts';
import { SoftAuthenticator } from '../testing/soft-authenticator.ts';

const ORIGIN = 'http://localhost:8080';
const ADMIN = { username: 'keeper', password: 'correct horse battery staple' };
const gateway = servicePerFile((env) =>
  buildApp(
    loadEnv({
      ...env,
      PUBLIC_ORIGIN: ORIGIN,
      CONTACT_URL: 'http://127.0.0.1:9',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    }),
  ),
);
const db = () => gateway.app.db;

beforeEach(async () => {
  await db().adminPasskey.deleteMany();
  await db().loginThrottle.deleteMany();
});

const cookieHeader = (response: LightMyRequestResponse) => response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

function call(method: 'GET' | 'POST', url: string, options: { payload?: unknown; cookie?: string; site?: string } = {}) {
  return gateway.app.inject({
    method,
    url,
    payload: options.payload as object | undefined,
    headers: { 'sec-fetch-site': options.site ?? 'same-origin', ...(options.cookie && { cookie: options.cookie }) },
  });
}

async function passwordSession(): Promise<string> {
  const login = await call('POST', '/api/admin/login', { payload: ADMIN });
  expect(login.statusCode).toBe(200);
  return cookieHeader(login);
}

/** Signs in with the password and adds a passkey held by a fresh software authenticator. */
async function registeredAuthenticator(): Promise<SoftAuthenticator> {
  const cookie = await passwordSession();
  const authenticator = new SoftAuthenticator(ORIGIN);
  const options = await call('POST', '/api/admin/passkeys/options', { cookie });
  expect(options.statusCode).toBe(200);
  const added = await call('POST', '/api/admin/passkeys', { cookie, payload: { response: authenticator.register(options.json()) } });
  expect(added.statusCode).toBe(201);
  return authenticator;
}

async function passkeySignIn(authenticator: SoftAuthenticator) {
  const options = await call('POST', '/api/admin/passkey-sign-in/options');
  expect(options.statusCode).toBe(200);
  const response = authenticator.signIn(options.json());
  return { answer: await call('POST', '/api/admin/passkey-sign-in', { payload: { response } }), response };
}

describe('admin passkeys', () => {
  it('adds a passkey after a password sign-in; the passkey then signs in with no password and a device cookie', async () => {
    const authenticator = await registeredAuthenticator();
    const cookie = await passwordSession();
    const list = await call('GET', '/api/admin/passkeys', { cookie });
    expect(list.json().passkeys).toEqual([
      { id: authenticator.credentialId.toString('base64url'), createdAt: expect.any(String), lastUsedAt: null },
    ]);

    const { answer } = await passkeySignIn(authenticator);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ username: ADMIN.username });
    const session = answer.cookies.find((c) => c.name === 'pa_admin');
    const device = answer.cookies.find((c) => c.name === 'pa_admin_device');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/admin/login' });
    const me = await call('GET', '/api/admin/me', { cookie: `pa_admin=${session!.value}` });
    expect(me.json()).toEqual({ username: ADMIN.username });
    const stored = await db().adminPasskey.findUniqueOrThrow({ where: { id: authenticator.credentialId.toString('base64url') } });
    expect(stored.counter).toBe(1n);
    expect(stored.lastUsedAt).not.toBeNull();
  });

  it('uses each challenge once: a replayed answer is refused and opens no session', async () => {
    const authenticator = await registeredAuthenticator();
    const { answer, response } = await passkeySignIn(authenticator);
    expect(answer.statusCode).toBe(200);
    const sessions = await db().adminSession.count();
    const replay = await call('POST', '/api/admin/passkey-sign-in', { payload: { response } });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toBe('This passkey request was already used. Please try again.');
    expect(replay.cookies).toEqual([]);
    expect(await db().adminSession.count()).toBe(sessions);
  });

  it('refuses an expired challenge, and a sign-in challenge offered to registration', async () => {
    const authenticator = await registeredAuthenticator();
    const rp = relyingPartyOf(ORIGIN, 'Pixel Atlas');
    const secret = gateway.app.adminAuthSecret;
    const old = await startPasskeySignIn({ secret, rp, now: new Date(Date.now() - 6 * 60_000) });
    await expect(
      signInWithPasskey({ db: db(), secret, rp, response: authenticator.signIn(old), clientIp: '203.0.113.9', userAgent: null }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'This passkey request has expired. Please try again.' });

    const cookie = await passwordSession();
    const signInOptions = (await call('POST', '/api/admin/passkey-sign-in/options')).json();
    const other = new SoftAuthenticator(ORIGIN);
    const wrongPurpose = other.register({ challenge: signInOptions.challenge, user: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } });
    const refused = await call('POST', '/api/admin/passkeys', { cookie, payload: { response: wrongPurpose } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('This passkey request is not valid. Please try again.');
    expect(await db().adminPasskey.count()).toBe(1);
  });

  it('refuses a passkey it does not know, an answer signed for another site, and one with a wrong signature', async () => {
    await registeredAuthenticator();
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.register({ challenge: 'x', user: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } });
    const unknown = await passkeySignIn(stranger);
    expect(unknown.answer.statusCode).toBe(401);
    expect(unknown.answer.json().error.code).toBe('INVALID_CREDENTIALS');

    const phished = new SoftAuthenticator('http://evil.example:8080');
    const cookie = await passwordSession();
    const options = (await call('POST', '/api/admin/passkeys/options', { cookie })).json();
    const added = await call('POST', '/api/admin/passkeys', { cookie, payload: { response: phished.register(options) } });
    expect(added.statusCode).toBe(400);
    expect(added.json().error.message).toBe('This passkey could not be registered. Please try again.');

    const authenticator = await registeredAuthenticator();
    const signInOptions = (await call('POST', '/api/admin/passkey-sign-in/options')).json();
    const response = authenticator.signIn(signInOptions);
    const forged = { ...response, response: { ...response.response, signature: Buffer.alloc(70, 1).toString('base64url') } };
    const refused = await call('POST', '/api/admin/passkey-sign-in', { payload: { response: forged } });
    expect(refused.statusCode).toBe(401);
    expect(refused.cookies).toEqual([]);
  });

  it('needs a session to add a passkey, refuses cross-site requests and bounds the body', async () => {
    expect((await call('POST', '/api/admin/passkeys/options')).statusCode).toBe(401);
    expect((await call('GET', '/api/admin/passkeys')).statusCode).toBe(401);
    expect((await call('POST', '/api/admin/passkey-sign-in/options', { site: 'cross-site' })).statusCode).toBe(403);
    const huge = { response: { id: 'a'.repeat(40_000) } };
    expect((await call('POST', '/api/admin/passkey-sign-in', { payload: huge })).statusCode).toBe(413);
    const malformed = await call('POST', '/api/admin/passkey-sign-in', { payload: { response: { id: 'not base64url!' } } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('registers through a one-time link from admin:create, signs in with it, and refuses the link a second time', async () => {
    // The CLI as `npm run admin:create -- keeper --passkey` runs it: an existing admin keeps the password, gets a link.
    const cli = path.resolve(import.meta.dirname, '../cli/create-admin.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli, ADMIN.username, '--passkey'], {
      env: { ...process.env, DATABASE_URL: gateway.env.DATABASE_URL, PUBLIC_ORIGIN: ORIGIN, ADMIN_PASSWORD: '' },
    });
    const link = /(\S+\/admin#passkey=(\S+))/.exec(stdout);
    expect(stdout).toContain(`Open this link within 60 minutes to add a passkey for ${ADMIN.username} (it works once):`);
    expect(link?.[1]).toMatch(new RegExp(`^${ORIGIN}/admin#passkey=`));
    const token = link![2]!;
    const options = await call('POST', '/api/admin/passkey-links/options', { payload: { token } });
    expect(options.statusCode).toBe(200);
    expect(options.json().username).toBe(ADMIN.username);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const added = await call('POST', '/api/admin/passkey-links', {
      payload: { token, response: authenticator.register(options.json().options) },
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ username: ADMIN.username });
    expect(added.cookies.map((c) => c.name).sort()).toEqual(['pa_admin', 'pa_admin_device']);

    const again = await call('POST', '/api/admin/passkey-links/options', { payload: { token } });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toMatch(/expired or was already used/);
    expect((await passkeySignIn(authenticator)).answer.statusCode).toBe(200);
    // The password was left as it was.
    expect((await call('POST', '/api/admin/login', { payload: ADMIN })).statusCode).toBe(200);
  });
});
