import cookie from '@fastify/cookie';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { resolveAdminSession, type SessionPolicy } from '../domain/admin-sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    adminSession: { sessionId: string; username: string } | null;
  }
  interface FastifyInstance {
    adminCookie: { name: string; secure: boolean };
  }
}

export interface AdminAuthOptions {
  policy: SessionPolicy;
  /** Served over https: Secure cookie with the __Host- prefix. */
  secure: boolean;
  publicOrigin?: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ADMIN_PREFIX = '/api/admin/';
const PUBLIC_ADMIN_PATHS = new Set(['/api/admin/login']);

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
    app.decorate('adminCookie', { name: opts.secure ? '__Host-pa_admin' : 'pa_admin', secure: opts.secure });
    app.decorateRequest('adminSession', null);
    app.addHook('onRequest', async (request) => {
      const path = request.url.split('?')[0];
      if (!path.startsWith(ADMIN_PREFIX) && path !== '/api/admin') return;
      if (!SAFE_METHODS.has(request.method) && isCrossSite(request, opts.publicOrigin)) {
        throw new AppError('CROSS_SITE_REQUEST', 'Cross-site requests to the admin API are not allowed');
      }
      const token = request.cookies[app.adminCookie.name];
      if (token) request.adminSession = await resolveAdminSession({ db: app.db, token, policy: opts.policy });
      if (!request.adminSession && !PUBLIC_ADMIN_PATHS.has(path)) {
        throw new AppError('UNAUTHENTICATED', 'Please sign in as an admin');
      }
    });
  },
  { name: 'gateway-admin-auth', dependencies: ['pixel-atlas-database'] },
);
