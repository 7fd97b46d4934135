import { timingSafeEqual } from 'node:crypto';
import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** True when the request carries the shared internal token, i.e. it came through the gateway. */
    fromGateway: boolean;
    /** The signed-in admin's username, as vouched for by the gateway; null otherwise. */
    adminUser: string | null;
    /** The visitor's address as seen by the gateway (or the socket's when called directly). */
    clientIp: string;
  }
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function hasInternalToken(headers: Record<string, string | string[] | undefined>, token: string): boolean {
  const presented = headers[INTERNAL_HEADERS.token];
  return typeof presented === 'string' && safeEqual(presented, token);
}

/**
 * Services trust identity headers only together with the gateway's shared token; anything else that
 * arrives with them is ignored, so a caller who reaches a service directly cannot claim to be an admin.
 */
export const internalAuthPlugin = fp(
  async (app: FastifyInstance, opts: { internalToken: string }) => {
    app.decorateRequest('fromGateway', false);
    app.decorateRequest('adminUser', null);
    app.decorateRequest('clientIp', '');
    app.addHook('onRequest', async (request) => {
      request.fromGateway = hasInternalToken(request.headers, opts.internalToken);
      const admin = request.headers[INTERNAL_HEADERS.admin];
      const clientIp = request.headers[INTERNAL_HEADERS.clientIp];
      request.adminUser = request.fromGateway && typeof admin === 'string' && admin ? admin : null;
      request.clientIp = request.fromGateway && typeof clientIp === 'string' && clientIp ? clientIp : request.ip;
    });
  },
  { name: 'pixel-atlas-internal-auth' },
);

/** preHandler for admin routes: the gateway already checked the session, services check the gateway. */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.adminUser) throw new AppError('UNAUTHENTICATED', 'Admin sign-in required');
}
