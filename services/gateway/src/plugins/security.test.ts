import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { securityPlugin } from './security.ts';

async function appWith(https: boolean) {
  const app = Fastify();
  await app.register(securityPlugin, { https });
  app.get('/page', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw new Error('boom');
  });
  return app;
}

const EVERY_RESPONSE = {
  'x-frame-options': 'SAMEORIGIN',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers', () => {
  it('on every response (a page, a 404, a 500), with the CSP built once; no HSTS over http', async () => {
    const app = await appWith(false);
    for (const url of ['/page', '/nothing', '/fails', '/page']) {
      const response = await app.inject(url);
      expect(response.headers).toMatchObject(EVERY_RESPONSE);
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self' https://checkout.stripe.com;frame-ancestors 'none';" +
          "img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self'",
      );
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
    await app.close();
  });

  it('a route that writes its own head gets them on every answer Fastify sends for it; its own value of one wins', async () => {
    const app = Fastify();
    await app.register(securityPlugin, { https: false });
    let setBeforeHead: string[] = [];
    app.get<{ Querystring: { raw?: string; fail?: string } }>('/own', { config: { writesOwnHead: true } }, async (request, reply) => {
      if (request.query.raw !== undefined) {
        setBeforeHead = reply.raw.getHeaderNames();
        reply.hijack();
        reply.raw.writeHead(200, ['content-type', 'text/plain', ...app.securityHeaders.flat()]).end('raw');
        return reply;
      }
      if (request.query.fail !== undefined) throw new Error('boom');
      return reply.header('x-frame-options', 'DENY').send({ ok: true });
    });
    const sent = await app.inject('/own');
    expect(sent.headers).toMatchObject({ ...EVERY_RESPONSE, 'x-frame-options': 'DENY' });
    expect((await app.inject('/own?fail')).headers).toMatchObject(EVERY_RESPONSE);
    const raw = await app.inject('/own?raw');
    expect(raw.body).toBe('raw');
    expect(raw.headers).toMatchObject(EVERY_RESPONSE);
    // Nothing set ahead in Node's header list: the written head is taken as it is, not merged into one.
    expect(setBeforeHead).toEqual([]);
    await app.close();
  });

  it('over https: HSTS and upgrade-insecure-requests', async () => {
    const app = await appWith(true);
    const response = await app.inject('/page');
    expect(response.headers).toMatchObject({ ...EVERY_RESPONSE, 'strict-transport-security': 'max-age=15552000; includeSubDomains' });
    expect(response.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    await app.close();
  });
});
