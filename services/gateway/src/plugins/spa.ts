import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isSpaRoute } from '@pixel-atlas/contracts/spa-routes';
import fp from 'fastify-plugin';

/**
 * Serves the built SPA. Hashed assets are cached for a year; the HTML never, so a deploy shows at
 * once. Text files go out as the brotli or gzip copies the web build wrote next to them (`preCompressed`,
 * with `Vary: Accept-Encoding`). Unknown non-API paths get the app's HTML (the SPA routes them, including
 * its 404 screen): `/` gets index.html, whose prerendered first screen is the home page's; every other path
 * gets app.html, the same shell with an empty main, so no screen flashes the home page's content first
 * (index.html when a build has no app.html), except the screens the build prerendered whole (screens/<name>.html for
 * /<name>: about, faq, terms, privacy). A path outside the app's route table (SPA_ROUTE_PATHS) gets the
 * same shell with HTTP 404, so crawlers and links see a real 404 while people see the spec's 404 screen.
 * Unknown /api paths get a JSON 404.
 */
export const spaPlugin = fp(
  async (app: FastifyInstance, opts: { distDir: string }) => {
    const indexFile = path.join(opts.distDir, 'index.html');
    const built = existsSync(indexFile);
    const otherScreensFile = existsSync(path.join(opts.distDir, 'app.html')) ? 'app.html' : 'index.html';
    // Screens the build prerendered whole (web/vite.config.ts): /faq gets screens/faq.html.
    const screensDir = path.join(opts.distDir, 'screens');
    const prerenderedScreens = new Map(
      (existsSync(screensDir) ? readdirSync(screensDir) : [])
        .filter((name) => /^[a-z0-9-]+\.html$/.test(name))
        .map((name) => [`/${name.slice(0, -'.html'.length)}`, `screens/${name}`]),
    );
    if (built) {
      await app.register(fastifyStatic, {
        root: opts.distDir,
        wildcard: false,
        index: false,
        preCompressed: true,
        setHeaders(res, filePath) {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    } else {
      app.log.warn({ distDir: opts.distDir }, 'web app not built: run `npm run build -w @pixel-atlas/web`');
    }
    app.setNotFoundHandler(async (request, reply) => {
      const [urlPath = ''] = request.url.split('?');
      if (urlPath.startsWith('/api/') || urlPath === '/api' || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route for ${request.method} ${urlPath}` } });
      }
      if (!built) {
        return reply.status(503).type('text/plain').send('The web app is not built yet. Run `npm run build -w @pixel-atlas/web`.');
      }
      // A file-looking path that isn't there is a missing asset, not an app route.
      const file = path.posix.join(opts.distDir, urlPath);
      if (path.extname(urlPath) && file !== indexFile) return reply.status(404).type('text/plain').send('Not found');
      reply.header('cache-control', 'no-cache');
      if (!isSpaRoute(urlPath)) reply.status(404);
      return reply.sendFile(urlPath === '/' ? 'index.html' : (prerenderedScreens.get(urlPath) ?? otherScreensFile));
    });
  },
  { name: 'gateway-spa' },
);
