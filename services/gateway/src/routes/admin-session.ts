import { PollingWorker } from '@pixel-atlas/service-kit/polling-worker';
import { z } from 'zod';
import { adminLoginRequestSchema, adminMeResponseSchema } from '@pixel-atlas/contracts/admin';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { ADMIN_SESSION_SECURITY } from '@pixel-atlas/service-kit/openapi';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { revokeAdminSession } from '../domain/admin-sessions.ts';
import { pruneLoginThrottle, signInAdmin, SignInThrottledError, type LoginThrottlePolicy } from '../domain/sign-in-admin.ts';
import type { PrismaClient } from '../db.ts';
import { sessionCookieOptions, setSignedInCookies } from './admin-cookies.ts';

const PRUNE_EVERY_MS = 10 * 60_000;

export async function adminSessionRoutes(
  app: FastifyInstance,
  opts: { db: PrismaClient; absoluteHours: number; signInPolicy?: LoginThrottlePolicy },
) {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/admin/login',
    {
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: {
        summary: 'Sign in as an admin',
        operationId: 'signInAdmin',
        tags: ['admin'],
        body: adminLoginRequestSchema,
        response: { 200: adminMeResponseSchema, 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { token, username } = await signInAdmin({
        db: opts.db,
        username: request.body.username,
        password: request.body.password,
        clientIp: request.clientIp,
        userAgent: request.headers['user-agent'] ?? null,
        device: { secret: app.adminAuthSecret, cookie: request.cookies[app.adminCookie.deviceName] },
        policy: opts.signInPolicy,
      }).catch((error: unknown) => {
        if (error instanceof SignInThrottledError) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      });
      setSignedInCookies(app, reply, { token, username, absoluteHours: opts.absoluteHours });
      return { username };
    },
  );

  const pruner = new PollingWorker({
    name: 'sign-in throttle pruner',
    log: app.log,
    pollIntervalMs: PRUNE_EVERY_MS,
    waitBeforeFirstRound: true,
    tick: async () => {
      await pruneLoginThrottle({ db: opts.db });
      return 0;
    },
  });
  app.addHook('onReady', async () => pruner.start());
  app.addHook('onClose', async () => pruner.stop());

  routes.post(
    '/api/admin/logout',
    {
      schema: {
        summary: 'Sign out (revokes the session on the server)',
        operationId: 'signOutAdmin',
        tags: ['admin'],
        security: ADMIN_SESSION_SECURITY,
        response: { 204: z.null(), 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request, reply) => {
      const token = request.cookies[app.adminCookie.name];
      if (token) await revokeAdminSession({ db: opts.db, token });
      // The device cookie stays: signing out does not make this browser a stranger.
      reply.clearCookie(app.adminCookie.name, sessionCookieOptions(app));
      return reply.status(204).send(null);
    },
  );

  routes.get(
    '/api/admin/me',
    {
      schema: {
        summary: 'The signed-in admin',
        operationId: 'getSignedInAdmin',
        tags: ['admin'],
        security: ADMIN_SESSION_SECURITY,
        response: { 200: adminMeResponseSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      if (!request.adminSession) throw new AppError('UNAUTHENTICATED', 'Please sign in as an admin');
      return { username: request.adminSession.username };
    },
  );
}
