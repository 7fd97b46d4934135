import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The checkout cookie: a random value naming one browser, signed with CHECKOUT_COOKIE_SECRET. A checkout belongs
 * to the browser that started it, never to its address: many buyers share one address (a home, an office, a
 * carrier's NAT), and a new checkout must only ever replace the same browser's own unpaid one.
 */
export const CHECKOUT_COOKIE = 'pa_checkout';
/** Sent only where it is read: the checkout start. */
export const CHECKOUT_COOKIE_PATH = '/api/create-checkout-session';
const MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
const VALUE_FORMAT = /^[A-Za-z0-9_-]{32}$/;

/** The signing secret when CHECKOUT_COOKIE_SECRET is unset: derived from the internal token, never the token itself. */
export function defaultCheckoutCookieSecret(internalToken: string): string {
  return createHmac('sha256', internalToken).update('pixel-atlas pa_checkout cookie signing').digest('base64url');
}

/**
 * The browser this checkout comes from, as the SHA-256 of its cookie (the raw value is never stored). A browser
 * without a valid signed cookie (its first checkout, a forged or tampered value, a client refusing cookies) is given
 * a new one with this answer: a forged value names nobody, so it can never reach another browser's checkouts.
 */
export function checkoutBrowser(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const presented = request.cookies[CHECKOUT_COOKIE];
  const unsigned = presented ? request.unsignCookie(presented) : null;
  let value = unsigned?.valid && VALUE_FORMAT.test(unsigned.value ?? '') ? unsigned.value : null;
  if (!value) {
    value = randomBytes(24).toString('base64url');
    reply.setCookie(CHECKOUT_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      path: CHECKOUT_COOKIE_PATH,
      secure,
      maxAge: MAX_AGE_SECONDS,
      signed: true,
    });
  }
  return createHash('sha256').update(value).digest('hex');
}
