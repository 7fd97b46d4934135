import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { withRouteHook } from '@pixel-atlas/service-kit/route-hooks';
import helmet from 'helmet';

/**
 * Security headers. The CSP allows only the app's own scripts, styles (plus inline style attributes,
 * which React components set), fonts and API, and images from itself, data: and blob: (cropped avatars).
 * `upgrade-insecure-requests` is only sent over https: over plain http on a compose host name it
 * would break every asset.
 *
 * The headers are the same for every response, so helmet runs once, at start, against a stand-in response, and every
 * request gets that list set in one synchronous hook: helmet per request rebuilds the CSP string each time, and
 * @fastify/helmet even calls `helmet(options)` again per request in two hooks of its own.
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
    const headers = headersSetBy(setSecurityHeaders);
    app.decorate('securityHeaders', headers);
    app.addHook('onRequest', (request, reply, done) => {
      // A route that writes its response head itself (the live stream, the public documents answered from memory) puts
      // these in it, built once: set here, they would also make Node merge the written head into its header list.
      if (request.routeOptions.config.writesOwnHead !== true) for (const [name, value] of headers) reply.raw.setHeader(name, value);
      done();
    });
    // Such a route's other answers (a refusal, an error, a proxied response) are sent by Fastify: they get the headers
    // on the way out. A header the answer already has wins, as it wins over the ones set above. Only those routes run
    // this hook.
    const setMissingHeaders: onSendHookHandler = (_request, reply, payload, done) => {
      for (const [name, value] of headers) if (!reply.hasHeader(name)) reply.header(name, value);
      done(null, payload);
    };
    app.addHook('onRoute', (route) => {
      if (route.config?.writesOwnHead !== true) return;
      route.onSend = withRouteHook(route.onSend, setMissingHeaders);
    });
  },
  { name: 'gateway-security' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers every response carries, as [name, value]. */
    securityHeaders: ReadonlyArray<readonly [string, string]>;
  }
  interface FastifyContextConfig {
    /**
     * The route writes its response head itself, security headers included (`app.securityHeaders`), on some or all of
     * its answers; the ones Fastify sends get the security headers as they are sent.
     */
    writesOwnHead?: boolean;
  }
}

/** The headers a connect-style middleware sets on a response (it must set them synchronously and call next). */
function headersSetBy(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void,
): Array<[string, string]> {
  const set = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number | string[]) => set.set(name, Array.isArray(value) ? value.join(', ') : String(value)),
    removeHeader: (name: string) => set.delete(name),
  };
  let called = false;
  middleware({ headers: {} } as IncomingMessage, response as unknown as ServerResponse, (error) => {
    if (error) throw error instanceof Error ? error : new Error('the security headers middleware failed', { cause: error });
    called = true;
  });
  if (!called) throw new Error('the security headers middleware did not finish synchronously');
  return [...set];
}
