import cookie from '@fastify/cookie';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PrismaClient } from '../db.ts';
import { resolveAdminSession, type SessionPolicy } from '../domain/admin-sessions.ts';
import { loadGatewaySecret } from '../domain/gateway-secrets.ts';

declare module 'fastify' {
  interface FastifyRequest {
    adminSession: { sessionId: string; username: string } | null;
  }
  interface FastifyInstance {
    /** `name`: the session cookie; `deviceName`: the device cookie of browsers that signed in before (device-cookies.ts). */
    adminCookie: { name: string; deviceName: string; secure: boolean };
    /** The key device cookies and WebAuthn challenges are signed with, shared by every replica (gateway_secrets). */
    adminAuthSecret: Buffer;
  }
}

export interface AdminAuthOptions {
  /** The gateway's own client (the app's `db`): sessions live there. */
  db: PrismaClient;
  policy: SessionPolicy;
  /** Served over https: Secure cookie with the __Host- prefix. */
  secure: boolean;
  publicOrigin?: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The routes open without a session: password sign-in, passkey sign-in, and registration through a one-time link. */
const OPEN_PATHS = new Set([
  '/api/admin/login',
  '/api/admin/passkey-sign-in/options',
  '/api/admin/passkey-sign-in',
  '/api/admin/passkey-links/options',
  '/api/admin/passkey-links',
]);

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const PLAIN_PATH = /^(?:\/[a-z0-9_-]+)+(?=[?#]|$)/;

/**
 * The path as a lenient server would see it: query and `;params` cut off, percent-escapes decoded
 * (repeatedly, so `%2561` is caught too), `\` taken as `/`, empty and `.` segments dropped, `..`
 * resolved, lowercased. Only used to decide what is guarded, never to route.
 */
export function normaliseRequestPath(url: string): string {
  // Most paths are already normal (lowercase segments of letters, digits, `-` and `_`): nothing to decode, drop or
  // resolve, so they are their own normal form. Every request of the two hooks that call this pays only this test.
  const plain = PLAIN_PATH.exec(url);
  if (plain) return plain[0];
  let [path = ''] = url.split(/[?#]/, 1);
  for (let i = 0; i < 3 && path.includes('%'); i++) path = decodeSegment(path);
  const out: string[] = [];
  for (const raw of path.split(/[/\\]/)) {
    const [withoutParams = ''] = raw.split(';', 1);
    const segment = withoutParams.toLowerCase();
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/**
 * Whether a request is for the admin API. Decided on the route Fastify matched and on the decoded,
 * normalised path, never on the raw URL: `/api/%61dmin/...`, `/api//admin/...`, `/API/admin/...`,
 * `/api/x/../admin/...` and `;params` all count as admin requests.
 */
export function isAdminRequest(request: FastifyRequest): boolean {
  const routeUrl = request.routeOptions.url?.toLowerCase();
  if (routeUrl && (routeUrl === '/api/admin' || routeUrl.startsWith('/api/admin/'))) return true;
  const path = normaliseRequestPath(request.url);
  return path === '/api/admin' || path.startsWith('/api/admin/');
}

/** Only the sign-in routes themselves, reached by their plain paths, are open without a session. */
function isLoginRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return route !== undefined && OPEN_PATHS.has(route) && request.url.split('?', 1)[0] === route;
}

function ownOrigin(request: FastifyRequest, publicOrigin?: string): string {
  return publicOrigin ? new URL(publicOrigin).origin : `${request.protocol}://${request.host}`;
}

/**
 * CSRF defence for cookie-authenticated requests: browsers say where a request comes from in
 * Sec-Fetch-Site (modern) or Origin (all POSTs); anything cross-site is refused.
 */
export function isCrossSite(request: FastifyRequest, publicOrigin?: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (typeof origin === 'string') return origin === 'null' || origin !== ownOrigin(request, publicOrigin);
  return false;
}

/**
 * Owns the admin cookie and guards every `/api/admin/*` route: 401 without a live session, 403 for a
 * state-changing request from another site. Runs before the proxy, so services only ever see admin
 * requests the gateway has vouched for.
 */
export const adminAuthPlugin = fp(
  async (app: FastifyInstance, opts: AdminAuthOptions) => {
    await app.register(cookie);
    // The device cookie is only ever read by the password sign-in, so it is scoped to that path (hence __Secure-, which
    // allows a path, where __Host- demands `/`): it never travels with other requests or to the services.
    app.decorate('adminCookie', {
      name: opts.secure ? '__Host-pa_admin' : 'pa_admin',
      deviceName: opts.secure ? '__Secure-pa_admin_device' : 'pa_admin_device',
      secure: opts.secure,
    });
    app.decorate('adminAuthSecret', await loadGatewaySecret({ db: opts.db, name: 'admin-auth' }));
    app.decorateRequest('adminSession', null);
    const guardAdminRequest = async (request: FastifyRequest) => {
      if (!SAFE_METHODS.has(request.method) && isCrossSite(request, opts.publicOrigin)) {
        throw new AppError('CROSS_SITE_REQUEST', 'Cross-site requests to the admin API are not allowed');
      }
      const token = request.cookies[app.adminCookie.name];
      if (token) request.adminSession = await resolveAdminSession({ db: opts.db, token, policy: opts.policy });
      if (!request.adminSession && !isLoginRequest(request)) {
        throw new AppError('UNAUTHENTICATED', 'Please sign in as an admin');
      }
    };
    // Synchronous for every other request (an async hook costs each of them a promise).
    app.addHook('onRequest', (request, _reply, done) => {
      if (!isAdminRequest(request)) done();
      else guardAdminRequest(request).then(() => done(), done);
    });
  },
  { name: 'gateway-admin-auth', dependencies: ['pixel-atlas-database'] },
);
