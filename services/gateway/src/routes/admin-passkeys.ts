import { PollingWorker } from '@pixel-atlas/service-kit/polling-worker';
import {
  adminMeResponseSchema,
  adminPasskeyListSchema,
  adminPasskeySchema,
  passkeyLinkOptionsRequestSchema,
  passkeyLinkOptionsResponseSchema,
  passkeyLinkRegistrationRequestSchema,
  passkeyRegistrationOptionsSchema,
  passkeyRegistrationRequestSchema,
  passkeySignInOptionsSchema,
  passkeySignInRequestSchema,
} from '@pixel-atlas/contracts/admin';
import { errorBodySchema } from '@pixel-atlas/contracts/errors';
import { AppError } from '@pixel-atlas/service-kit/errors';
import { ADMIN_SESSION_SECURITY } from '@pixel-atlas/service-kit/openapi';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PrismaClient } from '../db.ts';
import { resolvePasskeyLink, usePasskeyLink } from '../domain/passkey-links.ts';
import {
  finishPasskeyRegistration,
  relyingPartyOf,
  startPasskeyRegistration,
  type RelyingParty,
} from '../domain/register-admin-passkey.ts';
import { signInWithPasskey, startPasskeySignIn } from '../domain/sign-in-with-passkey.ts';
import { createAdminSession } from '../domain/admin-sessions.ts';
import { pruneUsedChallenges } from '../domain/webauthn-challenges.ts';
import { setSignedInCookies } from './admin-cookies.ts';

const PRUNE_EVERY_MS = 10 * 60_000;
/** A real WebAuthn answer is a few KB; anything much bigger is refused before it is parsed. */
const BODY_LIMIT = 32 * 1024;
/** Passkeys cannot be guessed, so these are bounds against floods, not against guessing. */
const OPEN_RATE_LIMIT = { max: 60, timeWindow: 60_000 };
const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  413: errorBodySchema,
  429: errorBodySchema,
};

export interface AdminPasskeyRoutesOptions {
  db: PrismaClient;
  /** PUBLIC_ORIGIN (or http://localhost:<PORT>): its host name is the passkeys' relying party ID. */
  publicOrigin: string;
  siteName: string;
  absoluteHours: number;
}

/** What each group of routes shares. */
interface PasskeyRoutesContext {
  db: PrismaClient;
  rp: RelyingParty;
  /** The admin-auth plugin's key, `app.adminAuthSecret`. */
  secret: () => Buffer;
  absoluteHours: number;
}

/** Passkey (WebAuthn) sign-in for admins, and adding passkeys: signed in, or through a one-time link. */
export async function adminPasskeyRoutes(app: FastifyInstance, opts: AdminPasskeyRoutesOptions) {
  const { db } = opts;
  const context: PasskeyRoutesContext = {
    db,
    rp: relyingPartyOf(opts.publicOrigin, opts.siteName),
    secret: () => app.adminAuthSecret,
    absoluteHours: opts.absoluteHours,
  };
  passkeySignInRoutes(app, context);
  signedInPasskeyRoutes(app, context);
  passkeyLinkRoutes(app, context);

  const pruner = new PollingWorker({
    name: 'used WebAuthn challenge pruner',
    log: app.log,
    pollIntervalMs: PRUNE_EVERY_MS,
    waitBeforeFirstRound: true,
    tick: async () => {
      await pruneUsedChallenges({ db });
      return 0;
    },
  });
  app.addHook('onReady', async () => pruner.start());
  app.addHook('onClose', async () => pruner.stop());
}

const clientOf = (request: FastifyRequest) => ({ clientIp: request.clientIp, userAgent: request.headers['user-agent'] ?? null });

/** The authentication ceremony: request options, then the signed answer, which starts an admin session. */
function passkeySignInRoutes(app: FastifyInstance, { db, rp, secret, absoluteHours }: PasskeyRoutesContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    '/api/admin/passkey-sign-in/options',
    {
      config: { rateLimit: OPEN_RATE_LIMIT },
      bodyLimit: 1024,
      schema: {
        summary: 'Start a passkey sign-in (WebAuthn request options)',
        operationId: 'startAdminPasskeySignIn',
        tags: ['admin'],
        response: { 200: passkeySignInOptionsSchema, 403: errorBodySchema, 429: errorBodySchema },
      },
    },
    async () => startPasskeySignIn({ secret: secret(), rp }),
  );

  routes.post(
    '/api/admin/passkey-sign-in',
    {
      config: { rateLimit: OPEN_RATE_LIMIT },
      bodyLimit: BODY_LIMIT,
      schema: {
        summary: 'Sign in as an admin with a passkey',
        operationId: 'signInAdminWithPasskey',
        tags: ['admin'],
        body: passkeySignInRequestSchema,
        response: { 200: adminMeResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { token, username } = await signInWithPasskey({
        db,
        secret: secret(),
        rp,
        response: request.body.response,
        ...clientOf(request),
      });
      setSignedInCookies(app, reply, { token, username, absoluteHours });
      return { username };
    },
  );
}

/** A signed-in admin's passkeys: the list, and the registration ceremony that adds one. */
function signedInPasskeyRoutes(app: FastifyInstance, { db, rp, secret }: PasskeyRoutesContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const signedInUser = async (request: FastifyRequest) => {
    if (!request.adminSession) throw new AppError('UNAUTHENTICATED', 'Please sign in as an admin');
    const user = await db.adminUser.findUniqueOrThrow({ where: { username: request.adminSession.username } });
    return { id: user.id, username: user.username };
  };

  routes.get(
    '/api/admin/passkeys',
    {
      schema: {
        summary: "The signed-in admin's passkeys",
        operationId: 'listAdminPasskeys',
        tags: ['admin'],
        security: ADMIN_SESSION_SECURITY,
        response: { 200: adminPasskeyListSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const user = await signedInUser(request);
      const passkeys = await db.adminPasskey.findMany({ where: { userId: user.id }, orderBy: { createdAt: 'asc' } });
      return {
        passkeys: passkeys.map((p) => ({
          id: p.id,
          createdAt: p.createdAt.toISOString(),
          lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
        })),
      };
    },
  );

  routes.post(
    '/api/admin/passkeys/options',
    {
      bodyLimit: 1024,
      schema: {
        summary: 'Start adding a passkey for the signed-in admin (WebAuthn creation options)',
        operationId: 'startAdminPasskeyRegistration',
        tags: ['admin'],
        security: ADMIN_SESSION_SECURITY,
        response: { 200: passkeyRegistrationOptionsSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => {
      const user = await signedInUser(request);
      return startPasskeyRegistration({ db, secret: secret(), rp, user, subject: `user:${user.id}` });
    },
  );

  routes.post(
    '/api/admin/passkeys',
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        summary: 'Add a passkey for the signed-in admin',
        operationId: 'addAdminPasskey',
        tags: ['admin'],
        security: ADMIN_SESSION_SECURITY,
        body: passkeyRegistrationRequestSchema,
        response: { 201: adminPasskeySchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = await signedInUser(request);
      const passkey = await finishPasskeyRegistration({
        db,
        secret: secret(),
        rp,
        userId: user.id,
        subject: `user:${user.id}`,
        response: request.body.response,
      });
      return reply.status(201).send({ id: passkey.id, createdAt: passkey.createdAt.toISOString(), lastUsedAt: null });
    },
  );
}

/** The registration ceremony through a one-time link (`npm run admin:create`), which also signs the admin in. */
function passkeyLinkRoutes(app: FastifyInstance, { db, rp, secret, absoluteHours }: PasskeyRoutesContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.post(
    '/api/admin/passkey-links/options',
    {
      config: { rateLimit: OPEN_RATE_LIMIT },
      bodyLimit: 1024,
      schema: {
        summary: 'Start adding a passkey through a one-time link from `npm run admin:create`',
        operationId: 'startAdminPasskeyLinkRegistration',
        tags: ['admin'],
        body: passkeyLinkOptionsRequestSchema,
        response: {
          200: passkeyLinkOptionsResponseSchema,
          400: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const { user, linkSubject } = await resolvePasskeyLink({ db, token: request.body.token });
      return { username: user.username, options: await startPasskeyRegistration({ db, secret: secret(), rp, user, subject: linkSubject }) };
    },
  );

  routes.post(
    '/api/admin/passkey-links',
    {
      config: { rateLimit: OPEN_RATE_LIMIT },
      bodyLimit: BODY_LIMIT,
      schema: {
        summary: 'Add a passkey through a one-time link, and sign in with it',
        operationId: 'addAdminPasskeyThroughLink',
        tags: ['admin'],
        body: passkeyLinkRegistrationRequestSchema,
        response: { 200: adminMeResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { user, linkSubject } = await resolvePasskeyLink({ db, token: request.body.token });
      await finishPasskeyRegistration({
        ...{ db, secret: secret(), rp, userId: user.id, subject: linkSubject, response: request.body.response },
        // Used up once the answer is verified, before the passkey is stored: two racing answers register one passkey.
        beforeStore: () => usePasskeyLink({ db, token: request.body.token }),
      });
      const token = await createAdminSession({ db, userId: user.id, ...clientOf(request) });
      setSignedInCookies(app, reply, { token, username: user.username, absoluteHours });
      return { username: user.username };
    },
  );
}
