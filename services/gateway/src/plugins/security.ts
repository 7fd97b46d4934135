import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Security headers. The CSP allows only the app's own scripts, styles (plus inline style attributes,
 * which React components set), fonts and API, and images from itself, data: and blob: (cropped avatars).
 * `upgrade-insecure-requests` is only sent over https: over plain http on a compose host name it
 * would break every asset.
 *
 * helmet's middleware is built once here and applied in one synchronous hook: @fastify/helmet calls
 * `helmet(options)` again on every request (parsing the CSP directives each time) in two hooks of its own.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance, opts: { https: boolean }) => {
    const setSecurityHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'", 'https://checkout.stripe.com'],
          upgradeInsecureRequests: opts.https ? [] : null,
        },
      },
      hsts: opts.https ? { maxAge: 15552000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    });
    app.addHook('onRequest', (request, reply, done) => {
      setSecurityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
    });
  },
  { name: 'gateway-security' },
);
