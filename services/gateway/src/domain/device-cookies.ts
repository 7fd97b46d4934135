import { randomBytes } from 'node:crypto';
import { sign, unsign } from '@fastify/cookie';

/**
 * OWASP's "device cookies": a browser that signed in as an admin carries a signed token naming that admin. Its wrong
 * passwords are counted against the token alone, so a flood from strangers (which fills the username's ceiling) never
 * blocks it, and a stolen token gets only its own small budget.
 */
export const DEVICE_COOKIE_MAX_AGE_DAYS = 365;
const PREFIX = 'device1';

const nameOf = (username: string) => Buffer.from(username.trim().toLowerCase()).toString('base64url');

/** A fresh token for a browser that just signed in (a new one at every success, so an old copy ages out). */
export function issueDeviceCookie(options: { secret: Buffer; username: string; now?: Date }): string {
  const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const value = `${PREFIX}.${nameOf(options.username)}.${randomBytes(16).toString('base64url')}.${issuedAt}`;
  return sign(value, options.secret.toString('hex'));
}

/** The device's id when the token is ours, unexpired and names this username; otherwise null (the browser is a stranger). */
export function readDeviceCookie(options: { secret: Buffer; cookie: string | undefined; username: string; now?: Date }): string | null {
  if (!options.cookie || options.cookie.length > 300) return null;
  const { valid, value } = unsign(options.cookie, options.secret.toString('hex'));
  if (!valid || !value) return null;
  const [prefix, name, deviceId, issuedAt, ...rest] = value.split('.');
  if (prefix !== PREFIX || rest.length || !deviceId || name !== nameOf(options.username)) return null;
  const ageSeconds = (options.now ?? new Date()).getTime() / 1000 - Number(issuedAt);
  if (!Number.isFinite(ageSeconds) || ageSeconds < -300 || ageSeconds > DEVICE_COOKIE_MAX_AGE_DAYS * 86_400) return null;
  return deviceId;
}
