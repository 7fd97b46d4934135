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

  it('over https: HSTS and upgrade-insecure-requests', async () => {
    const app = await appWith(true);
    const response = await app.inject('/page');
    expect(response.headers).toMatchObject({ ...EVERY_RESPONSE, 'strict-transport-security': 'max-age=15552000; includeSubDomains' });
    expect(response.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    await app.close();
  });
});
