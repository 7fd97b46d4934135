import type { FastifyInstance, FastifyReply } from 'fastify';
import { DEVICE_COOKIE_MAX_AGE_DAYS, issueDeviceCookie } from '../domain/device-cookies.ts';

/** The device cookie is read only by the password sign-in: browsers send it nowhere else. */
export const DEVICE_COOKIE_PATH = '/api/admin/login';

export function sessionCookieOptions(app: FastifyInstance) {
  return { path: '/', httpOnly: true, sameSite: 'strict' as const, secure: app.adminCookie.secure };
}

/**
 * After any successful sign-in (password, passkey, one-time link): the session cookie, and a fresh device cookie that
 * lets this browser's password attempts be counted apart from strangers' from now on.
 */
export function setSignedInCookies(
  app: FastifyInstance,
  reply: FastifyReply,
  signedIn: { token: string; username: string; absoluteHours: number },
) {
  reply.setCookie(app.adminCookie.name, signedIn.token, { ...sessionCookieOptions(app), maxAge: signedIn.absoluteHours * 3600 });
  reply.setCookie(app.adminCookie.deviceName, issueDeviceCookie({ secret: app.adminAuthSecret, username: signedIn.username }), {
    path: DEVICE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: app.adminCookie.secure,
    maxAge: DEVICE_COOKIE_MAX_AGE_DAYS * 86_400,
  });
}
