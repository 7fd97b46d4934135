import { existsSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '@pixel-atlas/service-kit/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isCrossSite, normaliseRequestPath } from './admin-auth.ts';

/** Paths that carry an owner's token (the page and its API). */
export function isOwnerPath(url: string): boolean {
  const path = normaliseRequestPath(url);
  return path.startsWith('/manage/') || path.startsWith('/api/manage/');
}

/** Where a page of ours could be made to count or change something from another site. */
function isOwnerOrStatsWrite(request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return false;
  const path = normaliseRequestPath(request.url);
  return path.startsWith('/api/manage/') || path === '/api/plot-stats';
}

/** The owner's page and its API: never indexed, never cached, and no Referer leaves it (the URL holds the token). */
function markPrivate(reply: FastifyReply): void {
  reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'no-store');
}

/**
 * The owner's private page (`/manage/<token>`): the app's shell with headers that keep the token in place, and the
 * gateway's CSRF rule (Sec-Fetch-Site / Origin) applied to owner edits and stat beacons: another site can neither
 * change a plot with a token it learnt nor inflate a plot's counts from its visitors' browsers.
 */
export const ownerPagesPlugin = fp(
  async (app: FastifyInstance, opts: { distDir: string; publicOrigin?: string }) => {
    // Synchronous hooks (they run on every request; an async one costs a promise each).
    app.addHook('onRequest', (request, _reply, done) => {
      if (isOwnerOrStatsWrite(request) && isCrossSite(request, opts.publicOrigin)) {
        done(new AppError('CROSS_SITE_REQUEST', 'Cross-site requests are not allowed here'));
        return;
      }
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      if (isOwnerPath(request.url)) markPrivate(reply);
      done(null, payload);
    });
    const shell = ['app.html', 'index.html'].find((name) => existsSync(path.join(opts.distDir, name)));
    app.get('/manage/:token', { schema: { hide: true } }, async (_request, reply) => {
      // reply.sendFile comes from the SPA plugin's static files, registered once the web app is built.
      if (!shell)
        return reply.status(503).type('text/plain').send('The web app is not built yet. Run `npm run build -w @pixel-atlas/web`.');
      return reply.sendFile(shell);
    });
  },
  { name: 'gateway-owner-pages', dependencies: ['gateway-admin-auth'] },
);
